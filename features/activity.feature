Feature: Activity
  One PII-free entry per call, with denials, validation failures and cross-tenant misses (§2.7, §7.2).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" },
                    "records": { "leads": [{ "name": "Vera Visitor", "email": "vera@example.test", "message": "Call me on 0123 456" }] } }] }
      """
    And a workspace with an owner "mallory" and a site "foreign"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write, crm:read"

  @rule:activity-entry-every-call @rule:activity-logs-denials @rule:activity-logs-validation-failures @rule:error-failure-logged
  Scenario: Each call writes one entry, failures with their code
    When "agent" calls "list_sites"
    And "agent" calls "update_business_name" with:
      """
      { "businessName": "X" }
      """
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading" }
      """
    Then the activity of "agent" has 3 entries
    And the activity of "agent" has an entry for "list_sites" with outcome "ok"
    And the activity of "agent" has an entry for "update_business_name" with code "scope_denied"
    And the activity of "agent" has an entry for "update_section_text" with outcome "invalid"

  @rule:activity-logs-cross-tenant-misses @rule:activity-pii-free
  Scenario: A cross-tenant miss is logged, and no entry carries personal data or argument values
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:foreign/home}}" }
      """
    Then the call fails with "not_found"
    When "agent" calls "list_leads"
    Then the call succeeds
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading", "text": "Secret launch copy" }
      """
    Then the activity of "agent" has an entry for "get_page" with outcome "not_found"
    And no activity entry of "agent" contains "Vera"
    And no activity entry of "agent" contains "vera@example.test"
    And no activity entry of "agent" contains "Secret launch copy"
    And no activity entry of "agent" contains "{{page:foreign/home}}"

  @rule:activity-retention-90-days
  Scenario: Entries older than 90 days are gone
    When "agent" calls "list_sites"
    And the clock of the workspace of "olive" advances 7862400 seconds
    And "agent" calls "get_brand"
    Then the activity of "agent" has 1 entries
    And the activity of "agent" has an entry for "get_brand" with outcome "ok"
