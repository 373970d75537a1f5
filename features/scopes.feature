Feature: Scopes and presets
  Scopes are a ceiling resolved at creation; presets are read once (§1.5, §2.1, §2.2, §9.2).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" }, "published": true },
                  { "key": "second", "members": { "olive": "owner" } }] }
      """

  @rule:scope-ceiling @rule:scope-site-read-always-on
  Scenario: A connection without content:write is refused edits but always holds site:read
    Given "olive" has a connection "reader" to "main" with scopes "settings:write"
    Then the connection view of "reader" lists scopes "site:read, settings:write"
    When "reader" calls "list_pages"
    Then the call succeeds
    When "reader" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Hi" }
      """
    Then the call fails with "scope_denied"
    And the error details at "/requiredScopes" equals "[\"content:write\"]"
    # Any scope but content:write is a ceiling below content edits: publish too.
    Given "olive" has a connection "publisher" to "main" with scopes "publish"
    When "publisher" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Hi" }
      """
    Then the call fails with "scope_denied"
    When "reader" calls "update_business_name" with:
      """
      { "businessName": "Olive's Bakery" }
      """
    Then the call succeeds

  @rule:scope-defaults @rule:connection-scopes-resolved-at-creation @rule:connection-reach-website-default @rule:list-sites-reach
  Scenario: With nothing chosen a connection gets site:read and content:write only, pinned to its website
    Given "olive" has a connection "plain":
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the connection view of "plain" lists at least the scopes "site:read, content:write"
    And the connection view of "plain" shows reach "website"
    When "plain" calls "list_sites"
    Then the data at "/sites" has 1 items
    And the data at "/sites/0/websiteId" equals "{{site:main}}"
    When "plain" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Default scopes can edit" }
      """
    Then the call succeeds
    # §2.2: publish is off by default; nothing but domain:read (default not shown) may join the two that are on.
    When "plain" calls "prepare_publish"
    Then the call fails with "scope_denied"
    And the connection view of "plain" lists no scopes but "site:read, content:write, domain:read"

  @rule:scope-domain-read-default
  Scenario: With nothing chosen a connection does not get domain:read either (our decision)
    Given "olive" has a connection "plain":
      """
      { "websiteId": "{{site:main}}" }
      """
    # Whether domain:read is on by default is our decision (§2.2 "not shown").
    Given the target adopts the decision "scope-domain-read-default"
    Then the connection view of "plain" lists scopes "site:read, content:write"
    When "plain" calls "list_domains"
    Then the call fails with "scope_denied"

  @rule:connection-reach-values
  Scenario: Reach is website or workspace, nothing else
    Then "olive" cannot create a connection with reach "galaxy"

  @rule:preset-names
  Scenario: The read-only preset grants site:read only (our decision)
    # Preset names other than "full" are our decision (§2.1 "Other preset names: not shown").
    Given the target adopts the decision "preset-names"
    Given "olive" has a connection "ro" to "main" with preset "read-only"
    Then the connection view of "ro" lists scopes "site:read"
    And the connection view of "ro" shows preset "Read only"

  @rule:preset-full-every-scope @rule:full-preset-since @rule:connection-scopes-resolved-at-creation
  Scenario: The full preset grants every scope, ai:generate and workspace:write included
    Given "olive" has a connection "full" to "main" with preset "full"
    Then the connection view of "full" lists scopes "site:read, content:write, publish, ai:generate, crm:read, crm:write, settings:write, domain:write, domain:read, access:write, communications:write, commerce:write, workspace:write"
    When "full" calls "list_domains"
    Then the call succeeds

  @rule:preset-names
  Scenario: The full preset is labelled Full access (our decision)
    Given "olive" has a connection "full" to "main" with preset "full"
    # How the full preset is labelled is our decision: §2.1 names only the label "Custom" (of the earlier full).
    Given the target adopts the decision "preset-names"
    Then the connection view of "full" shows preset "Full access"

  @rule:preset-narrow-full-shown-custom @rule:preset-change-never-widens @rule:domain-read-since @rule:full-preset-since
  Scenario: A connection made under the earlier, narrower full keeps its scopes and shows as Custom
    Given "olive" has a connection "old":
      """
      { "websiteId": "{{site:main}}", "preset": "full", "createdAt": "2026-08-01T10:00:00Z" }
      """
    Then the connection view of "old" shows preset "Custom"
    # §9.2: domain:read exists from 2026-08-15 and full covers every scope only from then.
    And the connection view of "old" does not list the scopes "domain:read"
    And the connection view of "old" does not list every scope

  @rule:preset-names
  Scenario: The earlier, narrower full held every scope of its day but ai:generate and workspace:write (our decision)
    Given "olive" has a connection "old":
      """
      { "websiteId": "{{site:main}}", "preset": "full", "createdAt": "2026-08-01T10:00:00Z" }
      """
    # Which scopes the earlier full held is not shown, so the exact list and the refusals below are our decision
    # (spec/scopes.json).
    Given the target adopts the decision "preset-names"
    Then the connection view of "old" lists scopes "site:read, content:write, publish, crm:read, crm:write, settings:write, domain:write, access:write, communications:write, commerce:write"
    When "old" calls "generate_image" with:
      """
      { "prompt": "A loaf of bread" }
      """
    Then the call fails with "scope_denied"
    When "old" calls "create_site" with:
      """
      { "businessName": "Second bakery" }
      """
    Then the call fails with "scope_denied"

  @rule:scope-domain-write-satisfies-read @rule:scope-domain-read-grants-nothing-else
  Scenario: domain:write satisfies domain:read, and domain:read grants nothing else
    Given "olive" has a connection "dw" to "main" with scopes "domain:write"
    And "olive" has a connection "dr" to "main" with scopes "domain:read"
    And "olive" has a connection "none" to "main" with scopes "site:read"
    When "dw" calls "list_domains"
    Then the call succeeds
    When "dr" calls "list_domains"
    Then the call succeeds
    # The scope refusal alone first, on a connection without domain scopes: its code (§7.4 shows none) is learned.
    When "none" calls "connect_domain" with:
      """
      { "hostname": "olive-bakery.example" }
      """
    Then the call fails with "scope_denied"
    # domain:read is refused the write as a scope (not let through to fail later for another reason).
    When "dr" calls "connect_domain" with:
      """
      { "hostname": "olive-bakery.example" }
      """
    Then the call fails with "scope_denied", the refusal seen for it alone

  @rule:scopes-dated @rule:domain-read-since
  Scenario: A connection holds only the scopes that existed when it was made
    When "olive" asks for a connection that cannot hold "domain:read":
      """
      { "websiteId": "{{site:main}}", "scopes": ["domain:read"], "createdAt": "2026-08-01T10:00:00Z" }
      """
    And "olive" asks for a connection that cannot hold "crm:write":
      """
      { "websiteId": "{{site:main}}", "scopes": ["crm:write"], "createdAt": "2026-07-01T10:00:00Z" }
      """
    Given "olive" has a connection "early":
      """
      { "websiteId": "{{site:main}}", "preset": "full", "createdAt": "2026-07-01T10:00:00Z" }
      """
    # §9.2: the crm:write, domain:write, communications:write, access:write and ai:generate tools exist from
    # 2026-07-28, domain:read from 2026-08-15.
    Then the connection view of "early" does not list the scopes "crm:write, domain:write, communications:write, access:write, ai:generate, domain:read"
    When "early" calls "list_domains"
    Then the call fails with "scope_denied"
    Given "olive" has a connection "domains-before-read":
      """
      { "websiteId": "{{site:main}}", "scopes": ["domain:write"], "createdAt": "2026-08-01T10:00:00Z" }
      """
    When "domains-before-read" calls "list_domains"
    Then the call succeeds

  @rule:preset-names
  Scenario: The full preset of July 2026 held site:read, content:write, publish, crm:read, settings:write and commerce:write (our decision)
    Given "olive" has a connection "early":
      """
      { "websiteId": "{{site:main}}", "preset": "full", "createdAt": "2026-07-01T10:00:00Z" }
      """
    # What else the earlier full held is not shown: ours (spec/scopes.json) for a target that adopts it.
    Given the target adopts the decision "preset-names"
    Then the connection view of "early" lists scopes "site:read, content:write, publish, crm:read, settings:write, commerce:write"

