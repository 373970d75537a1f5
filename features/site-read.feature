Feature: Reading the site
  The eight site:read tools read and never write; export is the whole draft as PortableSiteV1 (§2.3, §4.3).

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write"
    And the published state of "main" is remembered

  @rule:read-tools-no-side-effects @rule:ids-from-list-tools @rule:scope-site-read-is-a-copy
  Scenario: Every read tool answers without changing the draft or the live site
    When "agent" calls "list_sites"
    Then the call succeeds
    When "agent" calls "get_site_overview"
    Then the call succeeds
    And the data at "/siteRevision" equals "1"
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
    When "agent" calls "get_site_overview"
    Then the data at "/siteRevision" equals "1"
    And the published state of "main" is unchanged

  @rule:export-site-whole-draft @rule:export-site-contact-and-analytics @rule:portable-site-contents @rule:portable-site-external-key-form @rule:portable-site-section-rev @rule:portable-site-v1-name
  Scenario: Export carries the draft, not the live site, in PortableSiteV1
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading", "text": "Draft only heading" }
      """
    And "agent" calls "export_site"
    Then the call succeeds
    And the data at "/snapshot/format" equals "PortableSiteV1"
    And the data at "/snapshot/pages/0/sections/0/externalKey" equals "home/hero"
    And the data at "/snapshot/pages/0/sections/0/rev" equals "1"
    And the data at "/snapshot/pages/0/sections/0/content/heading" equals "Draft only heading"
    And the data at "/snapshot/contact/businessName" equals "Example Bakery"
    And the data at "/snapshot/analytics" equals "{}"
    And the published state of "main" is unchanged
