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
  items: Booking[];
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
  customer?: {
    name?: string;
    email?: string;
    phone?: string;
  };
}
