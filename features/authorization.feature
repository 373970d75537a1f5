Feature: Authorization on every call
  The creator's live role is re-read on every call; denials come in a fixed order; another tenant's ids
  answer exactly like missing ones (§2.1, §4.2, §5.6, §5.7, §5.8).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }, { "key": "second", "members": { "olive": "owner" } }] }
      """
    And a workspace:
      """
      { "users": [{ "key": "mallory" }], "sites": [{ "key": "foreign", "members": { "mallory": "owner" } }] }
      """

  @rule:connection-live-role-recheck @rule:connection-never-exceeds-creator @rule:authz-every-call
  Scenario: A creator demoted to viewer can still read but no longer edit
    Given "olive" has a connection "agent" to "main" with scopes "site:read, content:write"
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading", "text": "Before" }
      """
    Then the call succeeds
    When the role of "olive" on "main" becomes "viewer"
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading", "text": "After" }
      """
    Then the call fails with "access_denied"
    When "agent" calls "get_site_overview"
    Then the call succeeds

  @rule:connection-revoked-share-disables @rule:authz-denial-order
  Scenario: Removing the creator's membership disables the connection; a missing scope is named first
    Given "olive" has a connection "agent" to "main" with scopes "site:read"
    When "olive" loses access to "main"
    And "agent" calls "get_site_overview"
    Then the call fails with "access_denied"
    When "agent" calls "update_business_name" with:
      """
      { "businessName": "New name" }
      """
    Then the call fails with "scope_denied"

  @rule:authz-cross-tenant-not-found @rule:website-id-optional-on-website-reach
  Scenario: Another tenant's website answers exactly like a website that does not exist
    Given "olive" has a workspace connection "agent" from "main" with scopes "site:read"
    When "agent" calls "get_site_overview" with:
      """
      { "websiteId": "site_doesnotexist0" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing"
    When "agent" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:foreign}}" }
      """
    Then the call fails with "not_found"
    And the data does not contain "mallory"

  @rule:website-id-optional-on-website-reach
  Scenario: A website-reach connection naming another site of the same workspace gets not_found
    Given "olive" has a connection "pinned" to "main" with scopes "site:read"
    When "pinned" calls "get_site_overview"
    Then the call succeeds
    And the data at "/websiteId" equals "{{site:main}}"
    When "pinned" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:second}}" }
      """
    Then the call fails with "not_found"

  @rule:website-id-required-on-workspace-reach @rule:list-sites-reach @rule:verification-list-sites-overview
  Scenario: A workspace connection sees every site and must name one
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read"
    When "ws" calls "list_sites"
    Then the call succeeds
    And the data at "/sites" has 2 items
    When "ws" calls "get_site_overview"
    Then the call fails with "website_required"
    When "ws" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:second}}" }
      """
    Then the call succeeds
