Feature: Reading the site
  The eight site:read tools read and never write; export is the whole draft as PortableSiteV1 (§2.2, §2.3,
  §4.2, §4.3, §9.1).

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write"
    And the state of "main" is remembered

  @rule:read-tools-no-side-effects @rule:ids-from-list-tools @rule:scope-site-read-is-a-copy
  Scenario: Every read tool answers without changing the draft, the revision or the live site
    When "agent" calls "list_sites"
    Then the call succeeds
    And the data at "/sites/0/websiteId" equals "{{site:main}}"
    When "agent" calls "get_site_overview"
    Then the call succeeds
    And the data at "/siteRevision" equals the site revision of "main"
    When "agent" calls "list_pages"
    Then the call succeeds
    And the data at "/pages/0/pageId" equals "{{page:main/home}}"
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    Then the call succeeds
    And the data at "/page/sections/0/sectionId" equals "{{section:main/home/hero}}"
    When "agent" calls "list_draft_changes"
    Then the call succeeds
    When "agent" calls "get_brand"
    Then the call succeeds
    When "agent" calls "get_analytics_summary" with:
      """
      { "period": "7d" }
      """
    Then the call succeeds
    When "agent" calls "export_site"
    Then the call succeeds
    Then the draft of "main" is unchanged
    And the published state of "main" is unchanged
    # The ids the list tools returned are the ids the other tools accept.
    When "agent" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Found by its listed id" }
      """
    Then the call succeeds

  @rule:export-site-whole-draft @rule:content-write-draft-only @rule:portable-site-contents @rule:portable-site-external-key-form @rule:portable-site-section-rev @rule:portable-site-v1-name @rule:export-site-contact-and-analytics
  Scenario: Export carries the draft, not the live site, in PortableSiteV1
    # The snapshot is found by meaning (the object that names PortableSiteV1, §9.1), wherever it sits in data.
    When "agent" calls "export_site"
    Then the call succeeds
    And the data holds a PortableSiteV1 snapshot
    And every section of that snapshot has an externalKey of the form "<page>/<section>", content, layout and a revision number rev
    And the PortableSiteV1 snapshot in the data matches:
      """
      { "contact": { "businessName": "Example Bakery" }, "analytics": {} }
      """
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Draft only heading" }
      """
    And "agent" calls "export_site"
    Then the call succeeds
    And the PortableSiteV1 snapshot in the data contains "Draft only heading"
    And the published state of "main" is unchanged
    When a client GETs "{{public:main}}"
    Then the HTTP status is 200
    And the response body does not contain "Draft only heading"

  @rule:export-site-contact-and-analytics @rule:portable-site-contents
  Scenario: The contact block and the analytics identifiers of a site travel in its export
    Given a workspace:
      """
      { "plan": "business", "users": [{ "key": "paula" }], "sites": [{ "key": "shop", "members": { "paula": "owner" } }] }
      """
    And "paula" has a workspace connection "porter" from "shop" with scopes "site:read, content:write"
    When "porter" calls "import_site" with:
      """
      { "snapshot": {
          "format": "PortableSiteV1",
          "site": { "name": "Paula's Pottery" },
          "pages": [{ "key": "home", "title": "Home", "slug": "home",
                      "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Handmade cups" } }] }],
          "contact": { "businessName": "Paula's Pottery", "email": "hello@paula.example.test", "phone": "+49 30 1234567" },
          "analytics": { "googleAnalyticsId": "G-PAULA12345", "googleTagManagerId": "GTM-PAULA1" } } }
      """
    Then the call succeeds
    And the website the call created is remembered as "imported"
    When "porter" calls "export_site" with:
      """
      { "websiteId": "{{remembered:imported}}" }
      """
    Then the call succeeds
    And the PortableSiteV1 snapshot in the data matches:
      """
      { "contact": { "email": "hello@paula.example.test", "phone": "+49 30 1234567" },
        "analytics": { "googleAnalyticsId": "G-PAULA12345", "googleTagManagerId": "GTM-PAULA1" } }
      """

  @rule:public-site-security-headers
  Scenario: A published page runs no script and cannot be framed, sniffed or leak its address onward (our decision)
    # Which headers a published page carries is our decision (the source shows none); read at the declared publicSiteUrl.
    Given the target adopts the decision "public-site-security-headers"
    And a workspace:
      """
      { "users": [{ "key": "pia" }], "sites": [{ "key": "live", "members": { "pia": "owner" }, "published": true }] }
      """
    When a client GETs "{{public:live}}"
    Then the HTTP status is 200
    And the Content-Security-Policy directive "default-src" is "'none'"
    And the Content-Security-Policy has no directive "script-src"
    And the Content-Security-Policy directive "frame-ancestors" is "'none'"
    And the Content-Security-Policy directive "base-uri" is "'none'"
    And the Content-Security-Policy directive "form-action" is "'none'"
    And the response header "x-frame-options" equals "DENY"
    And the response header "x-content-type-options" equals "nosniff"
    And the response header "referrer-policy" equals "strict-origin-when-cross-origin"
    # A page that does not exist is answered under the same policy.
    When a client GETs "{{public:live}}no-such-page"
    Then the HTTP status is below 500
    And the Content-Security-Policy directive "default-src" is "'none'"
    And the Content-Security-Policy directive "frame-ancestors" is "'none'"
    And the response header "x-frame-options" equals "DENY"
