/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

import type { AddSectionTool } from './tools/add_section.js';
import type { ConfirmPendingActionTool } from './tools/confirm_pending_action.js';
import type { ConnectDomainTool } from './tools/connect_domain.js';
import type { CreateBlogPostTool } from './tools/create_blog_post.js';
import type { CreatePageTool } from './tools/create_page.js';
import type { CreateProductTool } from './tools/create_product.js';
import type { CreateServiceTool } from './tools/create_service.js';
import type { CreateSiteTool } from './tools/create_site.js';
import type { CrmUpdateTool } from './tools/crm_update.js';
import type { ExportSiteTool } from './tools/export_site.js';
import type { GenerateImageTool } from './tools/generate_image.js';
import type { GetAnalyticsSummaryTool } from './tools/get_analytics_summary.js';
import type { GetBrandTool } from './tools/get_brand.js';
import type { GetCommerceOverviewTool } from './tools/get_commerce_overview.js';
import type { GetPageTool } from './tools/get_page.js';
import type { GetSectionJsonTool } from './tools/get_section_json.js';
import type { GetSiteOverviewTool } from './tools/get_site_overview.js';
import type { ImportSiteTool } from './tools/import_site.js';
import type { ListAccessTool } from './tools/list_access.js';
import type { ListBookingsTool } from './tools/list_bookings.js';
import type { ListContactsTool } from './tools/list_contacts.js';
import type { ListDomainsTool } from './tools/list_domains.js';
import type { ListDraftChangesTool } from './tools/list_draft_changes.js';
import type { ListLeadsTool } from './tools/list_leads.js';
import type { ListPagesTool } from './tools/list_pages.js';
import type { ListProductsTool } from './tools/list_products.js';
import type { ListSendableDocumentsTool } from './tools/list_sendable_documents.js';
import type { ListServicesTool } from './tools/list_services.js';
import type { ListSitesTool } from './tools/list_sites.js';
import type { MigrateSiteFromUrlTool } from './tools/migrate_site_from_url.js';
import type { MoveSectionTool } from './tools/move_section.js';
import type { PrepareCreateCompanyTool } from './tools/prepare_create_company.js';
import type { PrepareGrantAccessTool } from './tools/prepare_grant_access.js';
import type { PreparePublishTool } from './tools/prepare_publish.js';
import type { PreparePublishProductTool } from './tools/prepare_publish_product.js';
import type { PrepareSearchVisibilityTool } from './tools/prepare_search_visibility.js';
import type { PrepareSendDocumentTool } from './tools/prepare_send_document.js';
import type { PrepareUnpublishTool } from './tools/prepare_unpublish.js';
import type { PublishSiteTool } from './tools/publish_site.js';
import type { ReplaceSectionContentTool } from './tools/replace_section_content.js';
import type { SetPrimaryDomainTool } from './tools/set_primary_domain.js';
import type { SetSectionHiddenTool } from './tools/set_section_hidden.js';
import type { SetSectionLayoutTool } from './tools/set_section_layout.js';
import type { UpdateBusinessNameTool } from './tools/update_business_name.js';
import type { UpdatePageSeoTool } from './tools/update_page_seo.js';
import type { UpdateSectionTextTool } from './tools/update_section_text.js';

/**
 * Every tool in spec/tools by name: its input, its output (the data of a successful result) and whether the call
 * path resolves a target website before its handler runs.
 */
export interface ToolTypes {
  add_section: AddSectionTool & { targetsSite: true };
  confirm_pending_action: ConfirmPendingActionTool & { targetsSite: false };
  connect_domain: ConnectDomainTool & { targetsSite: true };
  create_blog_post: CreateBlogPostTool & { targetsSite: true };
  create_page: CreatePageTool & { targetsSite: true };
  create_product: CreateProductTool & { targetsSite: true };
  create_service: CreateServiceTool & { targetsSite: true };
  create_site: CreateSiteTool & { targetsSite: false };
  crm_update: CrmUpdateTool & { targetsSite: true };
  export_site: ExportSiteTool & { targetsSite: true };
  generate_image: GenerateImageTool & { targetsSite: true };
  get_analytics_summary: GetAnalyticsSummaryTool & { targetsSite: true };
  get_brand: GetBrandTool & { targetsSite: true };
  get_commerce_overview: GetCommerceOverviewTool & { targetsSite: true };
  get_page: GetPageTool & { targetsSite: true };
  get_section_json: GetSectionJsonTool & { targetsSite: true };
  get_site_overview: GetSiteOverviewTool & { targetsSite: true };
  import_site: ImportSiteTool & { targetsSite: false };
  list_access: ListAccessTool & { targetsSite: true };
  list_bookings: ListBookingsTool & { targetsSite: true };
  list_contacts: ListContactsTool & { targetsSite: true };
  list_domains: ListDomainsTool & { targetsSite: true };
  list_draft_changes: ListDraftChangesTool & { targetsSite: true };
  list_leads: ListLeadsTool & { targetsSite: true };
  list_pages: ListPagesTool & { targetsSite: true };
  list_products: ListProductsTool & { targetsSite: true };
  list_sendable_documents: ListSendableDocumentsTool & { targetsSite: true };
  list_services: ListServicesTool & { targetsSite: true };
  list_sites: ListSitesTool & { targetsSite: false };
  migrate_site_from_url: MigrateSiteFromUrlTool & { targetsSite: false };
  move_section: MoveSectionTool & { targetsSite: true };
  prepare_create_company: PrepareCreateCompanyTool & { targetsSite: false };
  prepare_grant_access: PrepareGrantAccessTool & { targetsSite: true };
  prepare_publish: PreparePublishTool & { targetsSite: true };
  prepare_publish_product: PreparePublishProductTool & { targetsSite: true };
  prepare_search_visibility: PrepareSearchVisibilityTool & { targetsSite: true };
  prepare_send_document: PrepareSendDocumentTool & { targetsSite: true };
  prepare_unpublish: PrepareUnpublishTool & { targetsSite: true };
  publish_site: PublishSiteTool & { targetsSite: true };
  replace_section_content: ReplaceSectionContentTool & { targetsSite: true };
  set_primary_domain: SetPrimaryDomainTool & { targetsSite: true };
  set_section_hidden: SetSectionHiddenTool & { targetsSite: true };
  set_section_layout: SetSectionLayoutTool & { targetsSite: true };
  update_business_name: UpdateBusinessNameTool & { targetsSite: true };
  update_page_seo: UpdatePageSeoTool & { targetsSite: true };
  update_section_text: UpdateSectionTextTool & { targetsSite: true };
}

export type ToolName = keyof ToolTypes;
