Feature: Activity
  One PII-free entry per call, with denials, validation failures and cross-tenant misses, kept 90 days
  (§2.7, §7.2, §8).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" },
                    "records": { "leads": [{ "name": "Vera Visitor", "email": "vera@example.test", "phone": "+49 170 5550123", "message": "Call me about the wedding cake" }] } }] }
      """
    And a workspace with an owner "mallory" and a site "foreign"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write, crm:read"

  @rule:activity-entry-every-call @rule:activity-logs-denials @rule:activity-logs-validation-failures @rule:error-failure-logged
  Scenario: Each call writes exactly one entry naming the tool and the outcome, failures with their code
    When "agent" calls "list_sites"
    And "agent" calls "update_business_name" with:
      """
      { "businessName": "X" }
      """
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}" }
      """
    Then the activity of "agent" lists "list_sites, update_business_name, update_section_text" in this order
    And the activity of "agent" has an entry for "list_sites" with outcome "ok"
    And the activity of "agent" has an entry for "update_business_name" with outcome "denied" and code "scope_denied"
    And the activity of "agent" has an entry for "update_section_text" with outcome "invalid" and code "validation_failed"
    When the role of "olive" on "main" becomes "viewer"
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Viewers cannot edit" }
      """
    Then the call fails with "access_denied"
    And the activity of "agent" has 4 entries
    And the activity of "agent" has an entry for "update_section_text" with outcome "denied" and code "access_denied"

  @rule:activity-pii-free
  Scenario: No entry names the person behind the connection
    When "agent" calls "get_site_overview"
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Fresh loaves" }
      """
    And "agent" calls "get_page" with:
      """
      { "pageId": "{{page:foreign/home}}" }
      """
    Then the activity of "agent" has an entry for "update_section_text" with outcome "ok"
    And no activity entry of "agent" contains "{{email:olive}}"

  @rule:activity-logs-cross-tenant-misses @rule:activity-pii-free
  Scenario: A cross-tenant miss is logged, and no entry carries personal data or argument values
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:foreign/home}}" }
      """
    Then the call fails with "not_found"
    When "agent" calls "list_leads"
    Then the call succeeds
    And the data contains "Vera Visitor"
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Secret launch copy" }
      """
    Then the activity of "agent" has an entry for "get_page" with outcome "not_found" and code "not_found"
    And no activity entry of "agent" contains "Vera"
    And no activity entry of "agent" contains "vera@example.test"
    And no activity entry of "agent" contains "5550123"
    And no activity entry of "agent" contains "wedding cake"
    And no activity entry of "agent" contains "Secret launch copy"
    And no activity entry of "agent" contains "{{page:foreign/home}}"
    And no activity entry of "agent" contains "{{site:foreign}}"

  @rule:activity-retention-90-days
  Scenario: Entries are kept 90 days and removed after
    When "agent" calls "list_sites"
    And the clock of the workspace of "olive" advances 89 days
    And "agent" calls "get_brand"
    Then the activity of "agent" lists "list_sites, get_brand" in this order
    When the clock of the workspace of "olive" advances 2 days
    And "agent" calls "list_pages"
    Then the activity of "agent" lists "get_brand, list_pages" in this order

  @rule:activity-shown-in-developers
  Scenario: The owner reads each call of a connection, with its outcome, as the Developers settings show it
    # The fixtures protocol's activity read is the Developers settings' view of one connection (its address in
    # the app is not shown by the source).
    When "agent" calls "list_sites"
    And "agent" calls "update_business_name" with:
      """
      { "businessName": "Not allowed" }
      """
    Then the activity of "agent" lists "list_sites, update_business_name" in this order
    And the activity of "agent" has an entry for "update_business_name" with outcome "denied" and code "scope_denied"

  @rule:activity-name-bounded
  Scenario: A tool name of the caller's choosing is not kept whole, however long
    Given the target adopts the decision "activity-name-bounded"
    When "agent" calls "list_sites"
    And "agent" calls "no_such_tool_{{repeat:x:5000}}_NAME_END"
    Then the call fails with "unknown_tool"
    And the activity of "agent" has 2 entries
    And no activity entry of "agent" contains "_NAME_END"
