/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_bookings tool.
 */
export interface ListBookingsTool {
  input: ListBookingsInput;
  output: ListBookingsOutput;
}
export interface ListBookingsInput {
  websiteId?: string;
  status?: 'confirmed' | 'no_show' | 'cancelled' | 'completed';
  limit?: number;
  cursor?: string;
}
export interface ListBookingsOutput {
  /**
   * Personal data of this site only, newest first.
   */
  items: Booking[];
  /**
   * Pass as cursor for the next page; null on the last page.
   */
  nextCursor: string | null;
}
export interface Booking {
  bookingId: string;
  websiteId: string;
  status: 'confirmed' | 'no_show' | 'cancelled' | 'completed';
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
