/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairPollResponse".
 */
export type PairPollResponse =
  | {
      status: 'pending' | 'denied' | 'expired' | 'redeemed';
    }
  | {
      status: 'approved';
      token: string;
      websiteId: string | null;
      scopes: string[];
      kind: 'connection' | 'delivery';
    };

/**
 * Device-code pairing bodies (rule pairing-field-names). A poll after the token was returned answers status redeemed, with no token.
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
/**
 * POST /test-fixtures/v1/pairings/{userCode}/approve: the signed-in user approves at /dashboard/connect, through the same code path. websiteId null asks for a company-wide approval; scopes are the ones left ticked.
 *
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairApproveRequest".
 */
export interface PairApproveRequest {
  userId: string;
  websiteId: string | null;
  scopes: string[];
}
/**
 * This interface was referenced by `Pairing`'s JSON-Schema
 * via the `definition` "PairError".
 */
export interface PairError {
  error: {
    code: string;
    message: string;
  };
}
