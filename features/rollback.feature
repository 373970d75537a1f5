Feature: A failed business operation keeps nothing
  A business operation that fails throws and rolls back; no partial write remains (§7.3). The fixtures protocol
  makes the next write of a workspace fail as a failed disk write would.

  Background:
    Given a workspace:
      """
      { "plan": "business", "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }] }
      """
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write, workspace:write"

  @rule:error-business-failure-rolls-back
  Scenario: An edit and a new site whose writes fail leave no trace; the next ones work
    Given the state of "main" is remembered
    When the next write of the workspace of "olive" fails
    And "ws" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Lost in a failed write" }
      """
    Then the call fails
    And the draft of "main" is unchanged
    When "ws" calls "get_page" with:
      """
      { "websiteId": "{{site:main}}", "pageId": "{{page:main/home}}" }
      """
    Then the data does not contain "Lost in a failed write"
    When the next write of the workspace of "olive" fails
    And "ws" calls "create_site" with:
      """
      { "businessName": "Never Made Bakery" }
      """
    Then the call fails
    When "ws" calls "list_sites"
    Then the data does not contain "Never Made Bakery"
    When "ws" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Kept after the failure" }
      """
    Then the call succeeds
    When "ws" calls "create_site" with:
      """
      { "businessName": "Made Bakery" }
      """
    Then the call succeeds
    When "ws" calls "list_sites"
    Then the data contains "Made Bakery"

  @rule:company-creation-atomic @rule:create-company-once
  Scenario: A company confirmation whose write fails leaves no company; the retry creates exactly one
    Given "olive" has a connection "biz" to "main" with scopes "site:read, workspace:write"
    When "biz" calls "prepare_create_company" with:
      """
      { "companyName": "Half Made Ltd" }
      """
    And "olive" approves the plan
    And the next write of the workspace of "olive" fails
    And "biz" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails
    And "olive" owns no company named "Half Made Ltd"
    When "biz" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And "olive" owns exactly one company named "Half Made Ltd": plan free, no credits, no website, no trial, no monthly credit reset, no payment-provider object

  @rule:tool-answer-checked-before-commit
  Scenario: A call whose answer fails its output check keeps nothing; the next call works
    Given the state of "main" is remembered
    When the next tool answer in the workspace of "olive" is invalid
    And "ws" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Answered wrongly" }
      """
    Then the call fails
    And the draft of "main" is unchanged
    When the next tool answer in the workspace of "olive" is invalid
    And "ws" calls "create_site" with:
      """
      { "businessName": "Wrongly Answered Bakery" }
      """
    Then the call fails
    When "ws" calls "list_sites"
    Then the data does not contain "Wrongly Answered Bakery"
    When "ws" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Answered rightly" }
      """
    Then the call succeeds
