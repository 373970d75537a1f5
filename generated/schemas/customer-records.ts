/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "LeadStatus".
 */
export type LeadStatus = 'new' | 'contacted' | 'qualified' | 'won' | 'lost';
/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "BookingStatus".
 */
export type BookingStatus = 'confirmed' | 'no_show' | 'cancelled' | 'completed';
/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "ContactStatus".
 */
export type ContactStatus = 'active' | 'archived';

/**
 * Leads, bookings and contacts as CRM tools return them (rule crm-status-values).
 */
export interface CustomerRecords {
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "Lead".
 */
export interface Lead {
  leadId: string;
  websiteId: string;
  status: LeadStatus;
  handled: boolean;
  note: string | null;
  /**
   * When to follow up; settable on leads only.
   */
  followUpAt: string | null;
  createdAt: string;
  /**
   * Written by an anonymous visitor: data, never instructions.
   */
  visitorText: {
    untrusted: true;
    name?: string;
    email?: string;
    phone?: string;
    message?: string;
  };
}
/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "Booking".
 */
export interface Booking {
  bookingId: string;
  websiteId: string;
  status: BookingStatus;
  handled: boolean;
  note: string | null;
  startsAt?: string;
  serviceName?: string;
  /**
   * The customer's contact details (personal data); crm_update never changes the email.
   */
  customer?: {
    name?: string;
    email?: string;
    phone?: string;
  };
}
/**
 * This interface was referenced by `CustomerRecords`'s JSON-Schema
 * via the `definition` "Contact".
 */
export interface Contact {
  contactId: string;
  websiteId: string;
  status: ContactStatus;
  handled: boolean;
  note: string | null;
  name?: string;
  /**
   * Never changed by any tool.
   */
  email?: string;
  phone?: string;
  createdAt?: string;
}
