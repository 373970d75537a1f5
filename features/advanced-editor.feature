Feature: Advanced editor
  get_section_json, replace_section_content and set_section_layout need the invite-only grant; replacement is
  optimistic on rev and validated against the section schema (§2.4, §3, §4.3, §7.4).

  Background:
    Given a workspace:
      """
      { "advancedEditorGrant": true, "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "content:write"

  @rule:get-section-json-full-draft @rule:section-replace-requires-current-rev @rule:replace-section-stale-rev-rejected
  Scenario: Replace with the current rev succeeds once; a stale rev never overwrites
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    Then the call succeeds
    And the data at "/type", a field of our output shape, equals "{{type:hero}}"
    And the data at "/externalKey", a field of our output shape, equals "home/hero"
    And the data at "/rev" is remembered as "rev"
    When "agent" calls "replace_section_content" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "clientRev": {{remembered:rev}}, "content": { "{{field:heading}}": "First writer" } }
      """
    Then the call succeeds
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    Then the data at "/rev" is remembered as "new rev"
    And the data at "/content/{{field:heading}}" equals "First writer"
    When "agent" calls "replace_section_content" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "clientRev": {{remembered:rev}}, "content": { "{{field:heading}}": "Second writer" } }
      """
    Then the call fails with "stale_revision"
    And the error details at "/currentRev" equals "{{remembered:new rev}}"
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    Then the data at "/content/{{field:heading}}" equals "First writer"

  @rule:replace-section-stale-rev-rejected
  Scenario: Concurrent editor work in the app is never overwritten
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    And the data at "/rev" is remembered as "rev"
    And "olive" edits "main/home/hero" field "heading" in the app to "Edited in the app"
    And "agent" calls "replace_section_content" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "clientRev": {{remembered:rev}}, "content": { "{{field:heading}}": "Agent overwrite" } }
      """
    Then the call fails with "stale_revision"
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    Then the data at "/content/{{field:heading}}" equals "Edited in the app"

  @rule:replace-section-same-type @rule:replace-section-schema-validated @rule:replace-section-no-raw-markup
  Scenario Outline: Content that does not fit the section's own schema is rejected whole
    # The current rev, read first: the source orders no two refusals, so a stale one may come before the content's.
    When "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    And the data at "/rev" is remembered as "rev"
    And "agent" calls "replace_section_content" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "clientRev": {{remembered:rev}}, "content": <content> }
      """
    Then the call fails with "validation_failed"

    Examples:
      | content                                          |
      | { "{{field:body}}": "a text section's content" }           |
      | { "{{field:heading}}": "<div onclick=x>" }                 |
      | { "{{field:heading}}": "ok", "style": "color:red" }        |
      | { "{{field:heading}}": "ok", "html": "<p>raw</p>" }        |

  @rule:set-section-layout-tokens @rule:layout-tokens-bounded
  Scenario: Layout takes bounded tokens only
    When "agent" calls "set_section_layout" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "layout": { "width": "37px" } }
      """
    Then the call fails with "validation_failed"
    When "agent" calls "set_section_layout" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "layout": { "customCss": "x" } }
      """
    Then the call fails with "validation_failed"
    Given a layout the target's set_section_layout schema offers is remembered as "its layout"
    When "agent" calls "set_section_layout" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "layout": {{remembered:its layout}} }
      """
    Then the call succeeds

  @rule:layout-token-values
  Scenario: Layout tokens are ours: width wide, hideOnMobile (our decision)
    # The token values themselves are our decision (§2.4 "Allowed values: not shown").
    Given the target adopts the decision "layout-token-values"
    When "agent" calls "set_section_layout" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "layout": { "width": "wide", "hideOnMobile": true } }
      """
    Then the call succeeds
    And the data at "/layout/width" equals "wide"

  @rule:advanced-grant-fail-closed
  Scenario: Without the grant every advanced tool answers a logged denial
    When the workspace of "olive" changes settings:
      """
      { "advancedEditorGrant": false }
      """
    And "agent" calls "get_section_json" with:
      """
      { "sectionId": "{{section:main/home/hero}}" }
      """
    Then the call fails with "advanced_grant_missing"
    When "agent" calls "set_section_layout" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "layout": { "width": "wide" } }
      """
    Then the call fails with "advanced_grant_missing"
    And the activity of "agent" has an entry for "get_section_json" with code "advanced_grant_missing"
