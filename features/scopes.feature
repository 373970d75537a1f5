Feature: Scopes and presets
  Scopes are a ceiling resolved at creation; presets are read once (§2.1, §2.2, §9.2).

  Background:
    Given a workspace with an owner "olive" and a site "main"

  @rule:scope-ceiling @rule:scope-site-read-always-on
  Scenario: A connection without content:write is refused edits but can always read
    Given "olive" has a connection "reader" to "main" with scopes "settings:write"
    When "reader" calls "list_pages"
    Then the call succeeds
    When "reader" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "heading", "text": "Hi" }
      """
    Then the call fails with "scope_denied"
    And the error details at "/requiredScopes" equals "[\"content:write\"]"

  @rule:scope-defaults @rule:scope-domain-read-default @rule:connection-scopes-resolved-at-creation @rule:connection-reach-website-default
  Scenario: With no scopes chosen a connection gets site:read and content:write only, pinned to its website
    Given "olive" has a connection "plain":
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the connection view of "plain" lists scopes "site:read, content:write"
    When "plain" calls "list_domains"
    Then the call fails with "scope_denied"

  @rule:preset-names @rule:connection-reach-values
  Scenario: The read-only preset grants site:read only; reach is website or workspace
    Given "olive" has a connection "ro":
      """
      { "websiteId": "{{site:main}}", "preset": "read-only" }
      """
    Then the connection view of "ro" lists scopes "site:read"
    And the connection view of "ro" shows preset "Read only"
    When "olive" cannot create a connection with reach "galaxy"

  @rule:preset-full-every-scope @rule:full-preset-since
  Scenario: The full preset grants every scope, ai:generate and workspace:write included
    Given "olive" has a connection "full":
      """
      { "websiteId": "{{site:main}}", "preset": "full" }
      """
    Then the connection view of "full" lists scopes "site:read, content:write, publish, ai:generate, crm:read, crm:write, settings:write, domain:write, domain:read, access:write, communications:write, commerce:write, workspace:write"
    And the connection view of "full" shows preset "Full access"

  @rule:preset-narrow-full-shown-custom @rule:preset-change-never-widens @rule:domain-read-since
  Scenario: A connection made under the earlier, narrower full keeps its scopes and shows as Custom
    Given "olive" has a connection "old":
      """
      { "websiteId": "{{site:main}}", "preset": "full", "createdAt": "2026-08-01T10:00:00Z" }
      """
    Then the connection view of "old" shows preset "Custom"
    When "old" calls "generate_image" with:
      """
      { "prompt": "A loaf of bread" }
      """
    Then the call fails with "scope_denied"

  @rule:scope-domain-write-satisfies-read @rule:scope-domain-read-grants-nothing-else
  Scenario: domain:write satisfies domain:read, and domain:read grants nothing else
    Given "olive" has a connection "dw" to "main" with scopes "domain:write"
    And "olive" has a connection "dr" to "main" with scopes "domain:read"
    When "dw" calls "list_domains"
    Then the call succeeds
    When "dr" calls "list_domains"
    Then the call succeeds
    When "dr" calls "connect_domain" with:
      """
      { "hostname": "olive-bakery.example" }
      """
    Then the call fails with "scope_denied"
