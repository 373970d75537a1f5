// The broken servers prove-checks.ts runs each rule's checks against (after modelcontextprotocol/conformance's
// examples/servers/typescript/no-dns-rebinding-protection.ts, a server that "should FAIL" one scenario): one entry
// per rule the kit can break, each the reference composed with one seam changed, so it breaks that rule and the
// rule's checks must fail on it. The reference knows nothing of this; the seams are those production has anyway
// (reference/app.ts Composition):
//   - omitSteps: steps of the call path (reference/mcp/pipeline.ts CALL_STEPS) left out, named by their rule;
//   - steps: the call path otherwise changed (call-path.ts);
//   - handlers: tool handlers replaced (handlers.ts);
//   - limits: values of spec/limits.json changed;
//   - services / store: a service or the store decorated (services.ts);
//   - router: HTTP routes served before the reference's own (routes.ts);
//   - proxy: for what only a client sees, the reference behind a proxy that breaks it
//     (conformance/variants/variant-proxy.ts).
// serve.ts starts one: `npx tsx conformance/broken/serve.ts --break <rule>`; `npm run conformance -- --break <rule>`
// runs the suite against it.
import type { Composition, RouterPorts } from '../../reference/app.js';
import type { CallStep } from '../../reference/mcp/pipeline.js';
import type { Limits } from '../../reference/catalogue.js';
import type { Services } from '../../reference/services.js';
import type { Store } from '../../reference/infra/store/store.js';
import type { HandlerTable } from '../../reference/tools/types.js';
import type { VariantOptions } from '../variants/variant-proxy.js';
import type Router from '@koa/router';
import type { AdmissionRow } from '../../reference/auth/oauth-admission.js';
import { announcedSizeOnly, authMdForgetsCustomHeadCode, authMdWithout, authorizationErrorsRedirect, deliveryServesDraft, deliveryTokenUnpublishes, pairingForgetsItsCompany, rootMetadataNamesEndpoint } from './routes.js';
import { loadJson } from '../../spec/index.js';
import { areaBeforeScope, domainReadForEveryConnection, domainReadSatisfiesWrite, logArgumentsOfFailures, primaryDomainForEditors, tellForeignWebsites } from './call-path.js';
import * as broken from './handlers.js';
import * as capture from './capture.js';

const referenceLimits = loadJson<Limits>('limits.json');
import { askOnlyTheHostname, everyAddressExists, ignoreRobots, keepCreatedDocuments, keepFailedWrites } from './services.js';

export interface BrokenServer {
  omitSteps?: readonly string[];
  steps?: (steps: readonly CallStep[]) => CallStep[];
  handlers?: Partial<HandlerTable>;
  limits?: Partial<Limits>;
  services?: (services: Services) => Services;
  store?: (store: Store) => Store;
  proxy?: VariantOptions;
  /** HTTP routes served before the reference's own (routes.ts). */
  router?: (ports: RouterPorts) => Router;
  /** The OAuth admission table changed (routes.ts). */
  oauthAdmission?: (rows: readonly AdmissionRow[]) => AdmissionRow[];
}

export const BROKEN: Record<string, BrokenServer> = {
  // The call path.
  'scope-ceiling': { omitSteps: ['scope-ceiling'] },
  'rate-limit-per-connection': { omitSteps: ['rate-limit-per-connection'] },
  'activity-name-bounded': { omitSteps: ['activity-name-bounded'] },
  'connection-live-role-recheck': { omitSteps: ['connection-live-role-recheck'] },
  'tool-answer-checked-before-commit': { omitSteps: ['tool-answer-checked-before-commit'] },
  'authz-cross-tenant-not-found': { steps: tellForeignWebsites },
  'activity-pii-free': { steps: logArgumentsOfFailures },
  'authz-denial-order': { steps: areaBeforeScope },
  'domain-write-owner-only': { steps: primaryDomainForEditors },
  'domain-read-since': { steps: domainReadForEveryConnection },
  'scope-domain-read-grants-nothing-else': { steps: domainReadSatisfiesWrite },
  // Limits (spec/limits.json).
  'plan-expiry-five-minutes': { limits: { planLifetimeSeconds: 86_400 } },
  // Activity kept for 30 days only.
  'activity-retention-90-days': { limits: { activityRetentionDays: 30 } },
  // Failed sign-ins are not counted per account (only per address).
  'sign-in-throttled-per-account': { limits: { signIn: { ...referenceLimits.signIn, perAccount: { limit: 1_000_000, windowSeconds: referenceLimits.signIn.perAccount.windowSeconds } } } },
  // An address forgets the account's successful sign-in at once: the account's failures lock the owner out there too.
  'sign-in-known-address-admitted': { limits: { signIn: { ...referenceLimits.signIn, knownAddressSeconds: 0 } } },
  // Client registrations are not counted per address (in effect: an allowance no one reaches).
  'oauth-registration-throttled-per-address': { limits: { oauthRegistration: { ...referenceLimits.oauthRegistration, perAddress: { limit: 1_000_000, windowSeconds: referenceLimits.oauthRegistration.perAddress.windowSeconds } } } },
  // Client metadata up to oidc-provider's own 56 KB body limit is registered.
  // A registration's size is checked as announced only: a chunked body over the cap reaches the provider.
  'oauth-registration-size-announced': { oauthAdmission: announcedSizeOnly },
  'oauth-registration-metadata-capped': { limits: { oauthRegistration: { ...referenceLimits.oauthRegistration, maxMetadataBytes: 1_000_000 } } },
  // Tool handlers.
  'list-sites-reach': { handlers: { list_sites: broken.listEverySite } },
  'set-section-layout-tokens': { handlers: { set_section_layout: broken.refuseEveryLayout } },
  'publish-site-fails-closed': { handlers: { publish_site: broken.publishWithoutReview } },
  'content-write-draft-only': { handlers: broken.writesGoLive() },
  'replace-section-stale-rev-rejected': { handlers: { replace_section_content: broken.replaceAnyRevision } },
  'create-site-limit-twice': { handlers: { create_site: broken.createSiteCheckedOnce } },
  'create-site-empty-draft': { handlers: { create_site: broken.createStarterSite } },
  'plan-caller-bound': { handlers: { confirm_pending_action: broken.confirmFromAnyConnection } },
  'plan-single-use': { handlers: { confirm_pending_action: broken.confirmAgain } },
  'plan-confirm-requires-approval': { handlers: { confirm_pending_action: broken.confirmDeclined } },
  'plan-pins-site-revision': { handlers: { confirm_pending_action: broken.confirmUnpinnedPublish } },
  'plan-pins-product-revision': { handlers: { confirm_pending_action: broken.confirmUnpinnedProduct } },
  'plan-pins-document-fingerprint': { handlers: { confirm_pending_action: broken.confirmUnpinnedDocument } },
  'grant-access-owner-only': { handlers: { confirm_pending_action: broken.confirmAccessAsAnyMember } },
  'grant-access-website-scoped': { handlers: { confirm_pending_action: broken.inviteToEverySite } },
  'plan-redeem-reauthorizes-anchor': { handlers: { confirm_pending_action: broken.confirmByAnyMember } },
  'import-site-new-draft': { handlers: { import_site: broken.importPublishes } },
  'crm-update-cross-site-not-found': { handlers: { crm_update: broken.crmUpdateTellsSisterSites } },
  'generate-image-credits-before-provider': { handlers: { generate_image: broken.providerBeforeCredits } },
  'unpublish-takes-site-offline': { handlers: { prepare_unpublish: broken.unpublishAtPrepare } },
  'send-document-reviewed': { handlers: { prepare_send_document: broken.sendAtPrepare } },
  'search-visibility-reviewed': { handlers: { prepare_search_visibility: broken.searchVisibilityAtPrepare } },
  'create-company-reviewed': { handlers: { prepare_create_company: broken.createCompanyAtPrepare } },
  'import-merge-three-way': { handlers: { import_site: broken.mergeWithoutBases } },
  'import-merge-force-keys': { handlers: { import_site: broken.forceFieldsOnly } },
  'import-merge-never-touches-config': { handlers: { import_site: broken.mergeTakesConfig } },
  'import-merge-restore-point': { handlers: { import_site: broken.restorePointAfterMerge } },
  'human-only-no-deletion': { handlers: { import_site: broken.mergeMirrorsSnapshot } },
  'domain-other-site-same-as-missing': { handlers: { connect_domain: broken.connectTellsTaken, set_primary_domain: broken.primaryTellsTaken } },
  'activity-crm-summary-field-names': { handlers: { crm_update: broken.summaryWithStatus } },
  'portable-site-contents': { handlers: { export_site: broken.exportPagesOnly } },
  'portable-site-blocks-carried': { handlers: { export_site: broken.exportWithoutBlocks } },
  'export-site-contact-and-analytics': { handlers: { export_site: broken.exportWithoutAnalytics } },
  'portable-site-round-trip': { handlers: { import_site: broken.importDropsServiceDetails } },
  'portable-site-assets-carried': { handlers: { export_site: broken.exportAssetsWithoutAlt } },
  'import-site-assets-revalidated': { handlers: { import_site: broken.importHotlinksAssets } },
  'import-merge-adds-assets': { handlers: { import_site: broken.mergeDropsListedAssets } },
  'generate-image-consent-reread': { handlers: { generate_image: broken.consentAsFirstSeen } },
  'generate-image-balance-never-negative': { handlers: { generate_image: broken.chargeWithoutRecheck } },
  // Charging before delivery keeps the charge of a failed call only where writes are not held (held writes are
  // what a call that fails keeps nothing of), so this server also leaves that step out.
  'generate-image-charged-after-delivery': { handlers: { generate_image: broken.chargeUndelivered }, omitSteps: ['tool-answer-checked-before-commit'] },
  // Services and the store.
  'connect-domain-before-dns': { services: (s) => ({ ...s, dns: askOnlyTheHostname(s.dns) }) },
  'domain-nonexistent-address': { services: (s) => ({ ...s, dns: everyAddressExists(s.dns) }) },
  'migrate-crawl-bounded': { services: (s) => ({ ...s, net: ignoreRobots(s.net) }) },
  // The fetcher's address check removed: caught by the kit's loopback canaries, never by a real non-public address.
  // Loopback refused, a private network's and the metadata service's addresses crawled: only the kit's listeners
  // on those addresses (conformance/lib/canary.ts NON_PUBLIC_CANARIES) see it.
  'migrate-ssrf-hardened': { handlers: { migrate_site_from_url: broken.migrateFetchingPrivateAddresses } },
  'migrate-ssrf-names-resolved': { handlers: { migrate_site_from_url: broken.migrateConnectingByAnotherLookup } },
  'migrate-crawl-time-bounded': { handlers: { migrate_site_from_url: broken.migrateWithoutTimeBudget } },
  // Migration's visual capture (capture.ts): a typed draft (no browser) reported as captured; a re-sync reported as
  // captured; queued pages listed as captured; an allowance of 1000 pages instead of 20.
  'migrate-capture-then-typed': { services: (s) => ({ ...s, capture: null }), handlers: { migrate_site_from_url: capture.typedDraftCalledCaptured } },
  'migrate-fidelity-values': { handlers: { migrate_site_from_url: capture.resyncCalledCaptured } },
  'migrate-capture-status-listed': { handlers: { list_pages: capture.queuedPagesListedCaptured } },
  // Every page captured, none queued: breaks the decision and, with it, the source's 20-page allowance.
  'migrate-capture-queue-counted': { limits: { visualCaptureAllowancePages: 1000 } },
  'migrate-capture-allowance-setting': { handlers: { migrate_site_from_url: capture.workspaceAllowanceIgnored } },
  'error-business-failure-rolls-back': { store: keepFailedWrites },
  // HTTP routes.
  'delivery-token-read-published-only': { router: deliveryServesDraft },
  'delivery-token-cannot-write': { router: deliveryTokenUnpublishes },
  'auth-md-ways-in-and-human-only': { router: authMdForgetsCustomHeadCode },
  // /auth.md without the line that describes domain:read.
  'auth-md-discovery': { router: authMdWithout('domain:read') },
  'protected-resource-metadata-names-its-resource': { router: rootMetadataNamesEndpoint },
  // A new client's failing authorization request is redirected to its redirect URI: an open redirect.
  'oauth-no-error-redirect-unverified-client': { router: authorizationErrorsRedirect },
  // Whoever opens or approves a pairing's code next holds it, whichever company opened it first.
  'pairing-bound-to-first-workspace': { router: pairingForgetsItsCompany },
  'company-creation-atomic': { store: keepCreatedDocuments },
  // What a client sees, broken by a proxy in front of the reference.
  'tool-catalogue-exact': { proxy: { dropListedTool: 'confirm_pending_action' } },
  'oauth-challenge-scope-every-scope': { proxy: { narrowChallengeScope: true } },
  'oauth-client-id-metadata-documents': { proxy: { dropMetadataDocumentSupport: true } },
  'oauth-client-documents-no-redirect': { limits: { oauthClientDocuments: { ...referenceLimits.oauthClientDocuments, maxRedirects: 3 } } },
  'oauth-authorization-server-metadata-path-inserted': { proxy: { hidePathInsertedMetadata: true } },
  'migrate-result-relayed': { proxy: { dropResultField: { tool: 'migrate_site_from_url', field: 'pagesAwaitingCapture' } } },
  'tools-since': { proxy: { dropListedTool: 'generate_image' } },
  'state-names': { proxy: { renameStatuses: true } },
  'app-pages-frame-protection': { proxy: { dropSecurityHeaders: true } },
  'public-site-security-headers': { proxy: { dropSecurityHeaders: true } },
  'served-files-no-forms-no-framing': { proxy: { dropSecurityHeaders: true } },
  'dashboard-connect-lists-scopes': { proxy: { dropScopeCheckboxes: true } },
  'pair-start-throttled-per-address': { proxy: { pairStartFromFreshAddresses: true } },
  'tool-arguments-bounded': { proxy: { cutArgumentsTo: loadJson<{ toolArguments: { maxDepth: number; maxNodes: number } }>('limits.json').toolArguments } },
  'activity-shown-in-developers': { proxy: { hideActivity: true } },
  'domain-foreign-hostname-same-time': { proxy: { answerTakenHostnamesUnprobed: true } },
  'session-cookie-secure-over-https': { proxy: { weakenCookies: true } },
  'sign-in-throttled-per-address': { proxy: { signInFromFreshAddresses: true } },
  'sign-in-unknown-email-same-cost': { proxy: { slowKnownSignIns: true } },
  'migrate-merge-typed': { proxy: { migrateNeverMerges: true } },
  'pairing-token-returned-once': { proxy: { pollTokenAgain: true } },
  'pairing-grant-only-narrower': { proxy: { pairingAsksEverything: true } },
  'oauth-no-caller-profile-id': { proxy: { honourConnectionIdHeader: true } },
  'oauth-no-newest-connection-guess': { proxy: { oauthUsesNewestConnection: true } },
  'tools-list-single-type-schemas': { proxy: { typeUnionsInToolsList: true } },
  'tools-list-no-output-schema': { proxy: { outputSchemaInToolsList: true } },
  // The MCP protocol eras (§9.3): the wire of the 2026-07-28 era as only a client sees it.
  'mcp-eras-both': { proxy: { only2025Era: true } },
  'mcp-2026-discover': { proxy: { dropDiscoverFields: true } },
  'mcp-2026-result-type': { proxy: { dropResultType: true } },
  'mcp-2026-server-info': { proxy: { dropServerInfo: true } },
  'mcp-2026-cache-hints': { proxy: { dropCacheHints: true } },
  'mcp-2026-unsupported-version': { proxy: { acceptAnyModernRevision: true } },
  'mcp-2026-header-mismatch': { proxy: { headersFromBody: true } },
  'mcp-2026-resource-not-found': { proxy: { resourceNotFoundAsOldCode: true } },
  // export_site answers { format: "SomethingElse", pages: [] }: no snapshot names PortableSiteV1 (§2.3, §9.1).
  'portable-site-v1-name': { proxy: { wrongSnapshot: true } },
  // The authorization server's metadata names no registration_endpoint; the 401 scenario must still pass.
  'oauth-dynamic-client-registration': { proxy: { dropRegistrationEndpoint: true } },
};

/** The composition of the reference that `server` describes (its proxy, if any, is started by serve.ts). */
export function compositionOf(server: BrokenServer): Composition {
  const { omitSteps = [], steps = (s) => [...s], handlers, limits, services, store, router, oauthAdmission } = server;
  return {
    callSteps: (table) => steps(table.filter((step) => !omitSteps.includes(step.rule))),
    ...(handlers ? { handlers: (table: HandlerTable) => ({ ...table, ...handlers }) } : {}),
    services: (composed) => {
      const changed = services ? services(composed) : composed;
      return limits ? { ...changed, limits: { ...changed.limits, ...limits } } : changed;
    },
    ...(store ? { store } : {}),
    ...(router ? { router } : {}),
    ...(oauthAdmission ? { oauthAdmission } : {}),
  };
}
