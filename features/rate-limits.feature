Feature: Rate limits
  120 calls a minute per connection, 600 per workspace, refused with a retry hint (§8).

  Background:
    Given a workspace with an owner "olive" and a site "main"

  @rule:rate-limit-per-connection @rule:limit-values
  Scenario: The 121st call in a minute is refused, and the window moves on
    Given "olive" has a connection "agent" to "main" with scopes "site:read"
    When "agent" calls "list_sites" 120 times
    And "agent" calls "list_sites"
    Then the call fails with "rate_limited"
    And the error details at "/limit" equals "120"
    And the error details at "/windowSeconds" equals "60"
    When the clock of the workspace of "olive" advances 61 seconds
    And "agent" calls "list_sites"
    Then the call succeeds

  @rule:rate-limit-per-workspace
  Scenario: Six connections of one workspace share 600 calls a minute
    Given "olive" has a connection "a1" to "main" with scopes "site:read"
    And "olive" has a connection "a2" to "main" with scopes "site:read"
    And "olive" has a connection "a3" to "main" with scopes "site:read"
    And "olive" has a connection "a4" to "main" with scopes "site:read"
    And "olive" has a connection "a5" to "main" with scopes "site:read"
    And "olive" has a connection "a6" to "main" with scopes "site:read"
    When "a1" calls "list_sites" 100 times
    And "a2" calls "list_sites" 100 times
    And "a3" calls "list_sites" 100 times
    And "a4" calls "list_sites" 100 times
    And "a5" calls "list_sites" 100 times
    And "a6" calls "list_sites" 100 times
    And "a1" calls "list_sites"
    Then the call fails with "rate_limited"
