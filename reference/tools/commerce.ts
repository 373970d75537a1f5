// commerce:write tools (§4.3): draft services and products, and a PII-free overview. Nothing here invoices or
// charges anyone (rule commerce-never-charges); products become public only through the reviewed rail.
import { newId } from '../domain/ids.js';
import type { ListProductsOutput, ListServicesOutput } from '../../generated/index.js';
import { defineTool } from './types.js';

interface Price { amount: number; currency: string }

const list_services = defineTool('list_services', ({ site }) => ({ services: site.records.services.map(serviceView) }));

// Stored services and products are free-form records (the fixtures protocol writes any fields), so a view reads
// each field as the output schema types it; the output check before commit catches a stored value outside it.
function serviceView(s: Record<string, unknown>): ListServicesOutput['services'][number] {
  return {
    serviceId: String(s.serviceId),
    name: String(s.name),
    ...(s.description ? { description: String(s.description) } : {}),
    // cast: a stored price is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema).
    ...(s.price ? { price: s.price as Price } : {}),
    ...(s.durationMinutes ? { durationMinutes: Number(s.durationMinutes) } : {}),
    // cast: a stored status is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema).
    status: (s.status as ListServicesOutput['services'][number]['status'] | undefined) ?? 'draft',
  };
}

function productView(p: Record<string, unknown>): ListProductsOutput['products'][number] {
  return {
    productId: String(p.productId),
    name: String(p.name),
    ...(p.description ? { description: String(p.description) } : {}),
    status: p.status === 'public' ? 'public' : 'draft',
    revision: Number(p.revision ?? 1),
    // cast: a stored price is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema).
    price: (p.price as Price) ?? { amount: 0, currency: 'EUR' },
  };
}

const create_service = defineTool('create_service', async ({ args, write, note, now }) => {
  const record = await write((_ws, site) => {
    const service = { serviceId: newId('service'), websiteId: site.websiteId, ...args, status: 'draft', createdAt: now.toISOString() };
    site.records.services.push(service);
    return service;
  });
  note('draft service created');
  return serviceView(record);
});

const list_products = defineTool('list_products', ({ site }) => ({ products: site.records.products.map(productView) }));

const create_product = defineTool('create_product', async ({ args, write, note, now }) => {
  const record = await write((_ws, site) => {
    const product = { productId: newId('product'), websiteId: site.websiteId, ...args, status: 'draft', revision: 1, createdAt: now.toISOString() };
    site.records.products.push(product);
    return product;
  });
  note('draft product created');
  return productView(record);
});

/** Counts and statuses only: no customer, no amount owed by a person (rule commerce-overview-pii-free). */
const get_commerce_overview = defineTool('get_commerce_overview', ({ site }) => {
  const r = site.records;
  const docs = (kind: string, status: string) => r.documents.filter((d) => d.kind === kind && d.status === status).length;
  return {
    services: r.services.length,
    products: { draft: r.products.filter((p) => p.status !== 'public').length, public: r.products.filter((p) => p.status === 'public').length },
    openQuotes: docs('quote', 'draft'),
    draftInvoices: docs('invoice', 'draft'),
    sentInvoices: docs('invoice', 'sent'),
    bookings: r.bookings.length,
  };
});

export const commerceHandlers = { list_services, create_service, list_products, create_product, get_commerce_overview };
