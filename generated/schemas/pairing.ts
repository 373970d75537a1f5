/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairPollResponse".
 */
export type PairPollResponse =
  | {
      status: 'pending' | 'denied' | 'expired';
    }
  | {
      status: 'approved';
      token: string;
      websiteId: string | null;
      scopes: string[];
      kind: 'connection' | 'delivery';
    };

/**
 * Device-code pairing bodies (rule pairing-field-names). Not served by the reference server yet.
 */
export interface Pairing {
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairStartRequest".
 */
export interface PairStartRequest {
  scopes: string[];
  admin?: boolean;
  readOnly?: boolean;
}
/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairStartResponse".
 */
export interface PairStartResponse {
  userCode: string;
  deviceCode: string;
  verificationUri: string;
  expiresIn: number;
  interval: number;
}
/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairPollRequest".
 */
export interface PairPollRequest {
  deviceCode: string;
}
