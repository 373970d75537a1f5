/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * spec/plan-states.json: the state machines of §3 as data (rule state-names). A plan kind's own facts (scope, gates, pins, effect) are its prepare_* tool's (spec/tools, "plan").
 */
export interface PlanStates {
  $comment?: string;
  machines: {
    plan: Machine;
    [k: string]: Machine | undefined;
  };
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
