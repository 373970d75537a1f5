Feature: Rate limits
  120 calls a minute per connection, 600 per workspace, refused with rate_limited and a retry hint (§8).

  Background:
    Given a workspace with an owner "olive" and a site "main"

  @rule:rate-limit-per-connection @rule:limit-values
  Scenario: The 121st call of a connection in a minute is refused with a retry hint, and the window moves on
    Given "olive" has a connection "agent" to "main" with scopes "site:read"
    And "olive" has a connection "other" to "main" with scopes "site:read"
    When "agent" calls "list_sites" 120 times
    Then every one of those calls succeeds
    When "agent" calls "list_sites"
    Then the call fails with "rate_limited"
    And the error details at "/limit" equals "120"
    And the error details at "/windowSeconds" equals "60"
    And the error details at "/retryAfterSeconds" is a number from 1 to 60
    And the activity of "agent" has an entry for "list_sites" with code "rate_limited"
    # The limit is per connection: another connection of the same workspace is not affected.
    When "other" calls "list_sites"
    Then the call succeeds
    When the clock of the workspace of "olive" advances 61 seconds
    And "agent" calls "list_sites"
    Then the call succeeds

  @rule:rate-limit-per-workspace
  Scenario: Six connections of one workspace share 600 calls a minute; another workspace is not affected
    Given "olive" has a connection "a1" to "main" with scopes "site:read"
    And "olive" has a connection "a2" to "main" with scopes "site:read"
    And "olive" has a connection "a3" to "main" with scopes "site:read"
    And "olive" has a connection "a4" to "main" with scopes "site:read"
    And "olive" has a connection "a5" to "main" with scopes "site:read"
    And "olive" has a connection "a6" to "main" with scopes "site:read"
    And a workspace with an owner "nina" and a site "neighbour"
    And "nina" has a connection "n1" to "neighbour" with scopes "site:read"
    When "a1" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a2" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a3" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a4" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a5" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a6" calls "list_sites" 100 times
    Then every one of those calls succeeds
    When "a1" calls "list_sites"
    Then the call fails with "rate_limited"
    And the error details at "/limit" equals "600"
    And the error details at "/retryAfterSeconds" is a number from 1 to 60
    When "n1" calls "list_sites"
    Then the call succeeds
    When the clock of the workspace of "olive" advances 61 seconds
    And "a6" calls "list_sites"
    Then the call succeeds
