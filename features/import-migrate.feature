Feature: Import and migration
  PortableSiteV1 imports create unpublished drafts or merge by externalKey with app edits winning; migration is
  SSRF-hardened (§2.3, §2.7, §4.3, §8).

  Background:
    Given a workspace:
      """
      { "plan": "business", "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" }, "published": true }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write"

  @rule:import-site-new-draft @rule:import-result-fields @rule:import-site-audited @rule:import-site-assets-revalidated @rule:portable-site-assets-by-url @rule:migrate-ssrf-hardened
  Scenario: An exported snapshot imports as a new unpublished site; unsafe asset URLs are skipped with a reason
    When "agent" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Copy" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Imported" } }] }],
          "assets": [{ "key": "logo", "url": "{{canary:loopback-https}}" }, { "key": "meta", "url": "{{canary:ipv4-mapped-https}}" }] } }
      """
    Then the call succeeds
    And the data at "/merged", a field of our output shape, equals "false"
    And the data at "/assetsSkipped" has 2 items
    And the data, in our output shape, contains "non-public"
    And no canary was hit
    # §4.3 "creates a new unpublished draft website": the site it made is not live.
    When the website the call created is remembered as "copy"
    Then the site remembered as "copy" is not published
    And the activity of "agent" has an entry for "import_site" with outcome "ok"

  @rule:import-site-size-cap
  Scenario: A snapshot over the size cap is refused and creates nothing
    # The throttle values, the import cap, site limits per plan and the image cost are not shown (§8): the target's
    # own (fixtures part limits), or ours (spec/limits.json) when it adopts limit-values.
    Given the target's limit values are known
    When "agent" calls "import_site" with a snapshot of {{limit:importMaxBytes.value+1}} bytes
    Then the call fails with "over_cap"
    When "agent" calls "list_sites"
    Then the data at "/sites" has 1 items

  @rule:import-merge-by-external-key @rule:import-merge-field-by-field @rule:import-merge-restore-point @rule:import-merge-never-touches-config
  Scenario: A merge keeps fields edited in the app, takes the rest, inserts new sections, and reports what it kept
    When "olive" edits "main/home/hero" field "heading" in the app to "Owner's heading"
    And the state of "main" is remembered
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "theme": { "colors": { "primary": "#000000" } },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Pushed heading", "{{field:subheading}}": "Pushed sub" } },
            { "externalKey": "home/news", "type": "{{type:text}}", "content": { "{{field:body}}": "New section" } }] }] } }
      """
    Then the call succeeds
    And the data at "/merged", a field of our output shape, equals "true"
    # §4.3: each kept field is reported by name with both versions (found by the values the kit wrote).
    And the entry of the data that names "Owner's heading" also holds "Pushed heading"
    And the entry of the data that names "Owner's heading" also holds "{{field:heading}}"
    And the data at "/inserted", a field of our output shape, equals "[\"home/news\"]"
    And "main" has a restore point of the remembered draft
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    Then the data at "/page/sections/0/content/{{field:heading}}" equals "Owner's heading"
    And the data at "/page/sections/0/content/{{field:subheading}}" equals "Pushed sub"
    When "agent" calls "get_brand"
    Then the data at "/colors/primary" equals "#1f4e79"

  @rule:import-merge-three-way @rule:import-merge-field-by-field
  Scenario: Re-pushing an unchanged snapshot after an app edit keeps the app's value with no conflict; a push that changes the same field is one
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "First heading", "{{field:subheading}}": "First sub" } }] }] } }
      """
    Then the call succeeds
    When "olive" edits "main/home/hero" field "heading" in the app to "Owner's heading"
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "First heading", "{{field:subheading}}": "First sub" } }] }] } }
      """
    Then the call succeeds
    # Only a field both sides changed is kept and reported (§4.3): the app's value is reported nowhere.
    And the data does not contain "Owner's heading"
    When "agent" calls "export_site" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the data contains "Owner's heading"
    And the data contains "First sub"
    And the data does not contain "First heading"
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Second heading", "{{field:subheading}}": "Second sub" } }] }] } }
      """
    Then the call succeeds
    And the entry of the data that names "Owner's heading" also holds "Second heading"
    And the entry of the data that names "Owner's heading" also holds "{{field:heading}}"
    When "agent" calls "export_site" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the data contains "Owner's heading"
    And the data contains "Second sub"
    And the data does not contain "Second heading"

  @rule:portable-site-blocks-carried @rule:portable-site-contents
  Scenario: A section's blocks are kept by an import and a merge, and returned by the export
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Welcome" },
              "blocks": [{ "key": "note", "type": "{{type:text}}", "content": { "{{field:body}}": "Block of a matched section" } }] },
            { "externalKey": "home/menu", "type": "{{type:text}}", "content": { "{{field:body}}": "Our menu" },
              "blocks": [{ "key": "bread", "type": "{{type:text}}", "content": { "{{field:heading}}": "Sourdough", "{{field:body}}": "Block of a new section" } }] }] }] } }
      """
    Then the call succeeds
    When "agent" calls "export_site" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the data contains "Block of a matched section"
    And the data contains "Block of a new section"
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Copy" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Copied" },
            "blocks": [{ "key": "hours", "type": "{{type:text}}", "content": { "{{field:heading}}": "Hours", "{{field:body}}": "Block of an imported site" } }] }] }] } }
      """
    Then the call succeeds
    When the website the call created is remembered as "copy"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:copy}}" }
      """
    Then the data contains "Block of an imported site"

  @rule:portable-site-block-typed
  Scenario Outline: A block that is not a valid part of its section type is refused and the import creates nothing
    Given the target adopts the decision "portable-site-block-typed"
    When "agent" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Blocked" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Hi" },
            "blocks": [<block>] }] }] } }
      """
    Then the call fails with "validation_failed"
    When "agent" calls "list_sites"
    Then the data at "/sites" has 1 items

    Examples:
      | block                                                                                             |
      | { "key": "raw", "type": "html", "content": { "html": "<b>bold</b>" } }                            |
      | { "key": "raw", "type": "{{type:text}}", "content": { "html": "<b>bold</b>" } }                   |
      | { "key": "raw", "type": "{{type:text}}", "content": { "{{field:body}}": "<script>x</script>" } } |

  @rule:import-merge-force-keys
  Scenario: forceKeys makes one pushed field win over the app's edit
    When "olive" edits "main/home/hero" field "heading" in the app to "Owner's heading"
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "forceKeys": ["home/hero#{{field:heading}}"], "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Forced heading" } }] }] } }
      """
    Then the call succeeds
    # Nothing kept: the app's value is reported nowhere.
    And the data does not contain "Owner's heading"
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    Then the data at "/page/sections/0/content/{{field:heading}}" equals "Forced heading"

  @rule:import-merge-needs-edit-access
  Scenario: A merge needs edit access to the target
    When the role of "olive" on "main" becomes "viewer"
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "P" }, "pages": [] } }
      """
    Then the call fails with "access_denied"

  @rule:migrate-ssrf-hardened
  Scenario Outline: Migration refuses addresses that are not public, however they are spelled
    # The canaries are the kit's own loopback listeners: a target that fetched one is caught by the hit, and no
    # packet leaves the machine. A private or metadata address is sent only where it cannot leave either.
    When "agent" calls "migrate_site_from_url" with:
      """
      { "url": "<url>" }
      """
    Then the call fails with "validation_failed"
    And no canary was hit

    Examples:
      | url                                           |
      | http://127.0.0.1/                             |
      | http://[::1]/                                 |
      | http://localhost:8080/                        |
      | {{canary:loopback}}                           |
      | {{canary:ipv4-mapped}}                        |
      | {{canary:ipv4-mapped-hex}}                    |
      | {{canary:decimal}}                            |
      | {{canary:octal}}                              |
      | {{canary:hex}}                                |
      | {{canary:ipv6-loopback}}                      |
      | http://{{non-public:10.0.0.8}}/admin          |
      | http://{{non-public:169.254.169.254}}/latest/ |

    # A name, not an address: the kit's DNS stub resolves it to a canary, for a target that resolves through it.
    @rule:migrate-ssrf-names-resolved
    Examples: a host name that resolves to loopback
      | url                 |
      | {{canary:dns-name}} |

  @rule:throttle-create-site @rule:import-site-site-limit
  Scenario: create_site has its own per-workspace throttle, and imports respect the site limit
    # The throttle values, the import cap, site limits per plan and the image cost are not shown (§8): the target's
    # own (fixtures part limits), or ours (spec/limits.json) when it adopts limit-values.
    Given the target's limit values are known
    # The throttle is reached before the business plan's site limit, and the sites made by then are more than the
    # free plan allows.
    And the target's limit values allow this scenario: {{limit:throttles.create_site.limit+2}} <= {{limit:siteLimitByPlan.business}}, {{limit:siteLimitByPlan.free}} <= {{limit:throttles.create_site.limit+1}}
    Given "olive" has a connection "ws" to "main" with scopes "workspace:write, content:write"
    When "ws" calls "create_site" {{limit:throttles.create_site.limit}} times with:
      """
      { "businessName": "Another" }
      """
    And "ws" calls "create_site" with:
      """
      { "businessName": "One more" }
      """
    Then the call fails with "throttled"
    When the workspace of "olive" changes settings:
      """
      { "plan": "free" }
      """
    And "agent" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Over" }, "pages": [] } }
      """
    Then the call fails with "site_limit_reached"

  @rule:migrate-result-relayed @rule:migrate-result-fields @rule:migrate-crawl-bounded @rule:migrate-no-source-scripts @rule:migrate-ssrf-hardened
  Scenario: Migrating the kit's loopback website relays every result field, honours robots.txt and carries no script
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    And the data has the fields "fidelity, pagesAwaitingCapture, pagesFetched, pagesFailed, truncated, assetsSkipped, actionsRequired"
    And the kit website was asked for "/robots.txt"
    And the kit website was asked for "/about"
    And the kit website was never asked for "/private/secret"
    And no canary was hit
    When the website the call created is remembered as "migrated"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:migrated}}" }
      """
    Then the call succeeds
    And the data contains "Fresh bread from the loopback bakery"
    And the data contains "About the loopback bakery"
    And the data does not contain "window.stolenCookies"
    And the data does not contain "booking-widget.example"
    And the data does not contain "PRIVATE PAGE"

  @rule:migrate-crawl-time-bounded
  Scenario: A migration from a page that never finishes in time answers within the target's time budget
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    And the target's limit values are known
    When "ws" calls "migrate_site_from_url" with, waiting the target's migration time budget:
      """
      { "url": "{{website}}/drip/{{random:drip}}" }
      """
    Then the kit website was asked for "/drip/{{random:drip}}"

  @rule:migrate-merge-typed
  Scenario: Migrating again into the migrated site re-syncs it under the merge rules: same site, the app's edit kept
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    When the website the call created is remembered as "migrated"
    And "ws" calls "list_sites"
    And the data at "/sites" is remembered as "sites before"
    And "ws" calls "list_pages" with:
      """
      { "websiteId": "{{remembered:migrated}}" }
      """
    And the data at "/pages/0/pageId" is remembered as "first page"
    And "ws" calls "get_page" with:
      """
      { "websiteId": "{{remembered:migrated}}", "pageId": "{{remembered:first page}}" }
      """
    And the data at "/page/sections/0/sectionId" is remembered as "first section"
    And "olive" edits the section "{{remembered:first section}}" of the site "{{remembered:migrated}}" field "heading" in the app to "Edited in the app after the migration"
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/", "mergeIntoWebsiteId": "{{remembered:migrated}}" }
      """
    Then the call succeeds
    And the data has the fields "fidelity, pagesAwaitingCapture, pagesFetched, pagesFailed, truncated, assetsSkipped, actionsRequired"
    When "ws" calls "list_sites"
    Then the data at "/sites" has as many items as the remembered "sites before"
    When "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:migrated}}" }
      """
    Then the data contains "Edited in the app after the migration"
    And the data contains "About the loopback bakery"

  # §4.3 leaves open whether a target can capture at all and what fidelity's values are; by the source a re-sync
  # with mergeIntoWebsiteId takes the typed path, so the fidelity it reports is the target's typed value. A new
  # migration reporting another value says it captured, and then owes what a capture is: both pages the crawl reads
  # carry a link whose words no heading or paragraph holds, so whichever page was captured, the site keeps them.
  @rule:migrate-capture-then-typed
  Scenario: A new migration that says it captured keeps the page's links; a re-sync names the typed path
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/", "mergeIntoWebsiteId": "{{site:main}}" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "typed fidelity"
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "new fidelity"
    And the website the call created is remembered as "migrated"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:migrated}}" }
      """
    Then the call succeeds
    And unless the remembered "new fidelity" equals the remembered "typed fidelity", the data contains "Read our story"

  @rule:migrate-capture-then-typed
  Scenario: A migration that cannot capture falls back to typed sections and says so: its fidelity is a re-sync's
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/", "mergeIntoWebsiteId": "{{site:main}}" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "typed fidelity"
    And visual capture is unavailable for the next migration of "olive"
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    And the data at "/fidelity" equals the remembered "typed fidelity"

  @rule:migrate-capture-queue-counted
  Scenario: Of the kit's 25-page website at most 20 pages are captured; the rest are counted as awaiting capture
    Given the target adopts the decision "migrate-capture-queue-counted"
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/many/", "maxPages": 40 }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "new fidelity"
    And the data at "/pagesFetched" is remembered as "fetched"
    And the data at "/pagesAwaitingCapture" is remembered as "awaiting"
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/many/", "maxPages": 40, "mergeIntoWebsiteId": "{{site:main}}" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "typed fidelity"
    Then unless the remembered "new fidelity" equals the remembered "typed fidelity", the remembered "awaiting" is at least the remembered "fetched" minus 20

  @rule:migrate-capture-allowance-setting
  Scenario: A workspace with its own allowance of 1 page has only one page of the kit's website captured, the other waiting
    Given the target adopts the decision "migrate-capture-allowance-setting"
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When the workspace of "olive" changes settings:
      """
      { "captureAllowancePages": 1 }
      """
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/", "mergeIntoWebsiteId": "{{site:main}}" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "typed fidelity"
    And "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    When the data at "/fidelity" is remembered as "new fidelity"
    And the data at "/pagesFetched" is remembered as "fetched"
    And the data at "/pagesAwaitingCapture" is remembered as "awaiting"
    Then unless the remembered "new fidelity" equals the remembered "typed fidelity", the remembered "awaiting" is at least the remembered "fetched" minus 1

  @rule:migrate-fidelity-values
  Scenario: fidelity is typed for a re-sync and one of visual, typed or mixed for a new migration
    Given the target adopts the decision "migrate-fidelity-values"
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/", "mergeIntoWebsiteId": "{{site:main}}" }
      """
    Then the call succeeds
    And the data at "/fidelity" equals "typed"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/" }
      """
    Then the call succeeds
    And the data at "/fidelity" is one of "visual, typed, mixed"

  @rule:migrate-capture-status-listed
  Scenario: list_pages shows as many pages queued for capture as the migration said await it
    Given the target adopts the decision "migrate-capture-status-listed"
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "migrate_site_from_url" with:
      """
      { "url": "{{website}}/many/", "maxPages": 40 }
      """
    Then the call succeeds
    When the data at "/pagesAwaitingCapture" is remembered as "awaiting"
    And the website the call created is remembered as "many"
    And "ws" calls "list_pages" with:
      """
      { "websiteId": "{{remembered:many}}" }
      """
    Then the call succeeds
    And the data at "/pages" has 25 items
    And as many items at "/pages" have "capture" "queued" as the remembered "awaiting"

  @rule:import-site-assets-revalidated @rule:migrate-ssrf-hardened
  Scenario: Images named inside section content go through the same asset checks as listed assets
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write"
    When "ws" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pictures" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Kept heading" } },
            { "externalKey": "home/photo", "type": "{{decision:section-types:image}}", "content": { "imageUrl": "{{canary:loopback-https}}", "alt": "Loopback" } },
            { "externalKey": "home/gallery", "type": "{{decision:section-types:gallery}}", "content": { "images": [{ "imageUrl": "{{canary:ipv4-mapped-https}}", "alt": "Mapped" }] } }] }] } }
      """
    Then the call succeeds
    And the data contains "{{canary-path:loopback-https}}"
    And the data contains "{{canary-path:ipv4-mapped-https}}"
    And no canary was hit
    When the website the call created is remembered as "pictures"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:pictures}}" }
      """
    Then the data contains "Kept heading"
    And the data does not contain "{{canary-path:loopback-https}}"
    And the data does not contain "{{canary-path:ipv4-mapped-https}}"

