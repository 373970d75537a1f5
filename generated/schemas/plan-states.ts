/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * spec/plan-states.json: the state machines of §3 as data, and the facts of each plan kind the reference derives its checks from (rules state-names, plan-redeem-reauthorizes-anchor).
 */
export interface PlanStates {
  $comment?: string;
  machines: {
    plan: PlanMachine;
    [k: string]: Machine | PlanMachine | undefined;
  };
}
/**
 * This interface was referenced by `PlanStates`'s JSON-Schema
 * via the `definition` "PlanMachine".
 */
export interface PlanMachine {
  initial: string;
  states: string[];
  terminal: string[];
  transitions: Transition[];
  /**
   * One entry per plan kind (common.schema.json PlanKind).
   */
  kinds: {
    [k: string]: PlanKindSpec | undefined;
  };
}
/**
 * This interface was referenced by `PlanStates`'s JSON-Schema
 * via the `definition` "Transition".
 */
export interface Transition {
  from: string | null;
  to: string;
  trigger: string;
  condition?: string;
  rules: string[];
}
/**
 * This interface was referenced by `PlanStates`'s JSON-Schema
 * via the `definition` "PlanKindSpec".
 */
export interface PlanKindSpec {
  /**
   * The scope the plan's connection must hold, at prepare and again at redemption.
   */
  scope: string;
  /**
   * What the plan pins of what was reviewed (§2.6).
   */
  pins: 'siteRevision' | 'productRevision' | 'documentFingerprint' | 'none';
  /**
   * Only an owner of the plan's website may have it carried out; re-checked on the creator's live role at redemption.
   */
  ownerOnly?: boolean;
  /**
   * The agency-switchable area the plan's effect belongs to.
   */
  area?: string;
  /**
   * What the plan's website is for the kind, when it is not the site the effect changes.
   */
  anchor?: string;
  effect: string;
}
/**
 * This interface was referenced by `PlanStates`'s JSON-Schema
 * via the `definition` "Machine".
 */
export interface Machine {
  initial: string;
  states: string[];
  terminal: string[];
  transitions: Transition[];
}
