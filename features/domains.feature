Feature: Domains
  Connect a hostname the business owns, also before its DNS is set, and verify it by real DNS lookups;
  owner-only; another site's hostname answers like one that does not exist (§4.2, §4.3, §5.6, §8).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }, { "key": "eddie" }],
        "sites": [{ "key": "main", "members": { "olive": "owner", "eddie": "owner" } }] }
      """
    And a workspace with an owner "mallory" and a site "foreign"
    And "olive" has a connection "agent" to "main" with scopes "domain:write"
    And "mallory" has a connection "rival" to "foreign" with scopes "domain:write"

  @rule:domain-status-values @rule:connect-domain-idempotent @rule:connect-domain-real-lookup @rule:list-domains-status @rule:set-primary-domain-canonical @rule:domain-tools-take-hostname
  Scenario: Connect, add the records asked for, re-check, then make it primary
    Given the hostname "{{host:shop}}" exists in DNS
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call succeeds
    And the data at "/status" equals "{{decision:domain-status-values:pending}}"
    And the data at "/alreadyConnected" equals "false"
    And the data, in our output shape, contains "_site-mcp-verify"
    When "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call fails with "validation_failed"
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the data at "/alreadyConnected" equals "true"
    And the data at "/status" equals "{{decision:domain-status-values:pending}}"
    Given the DNS zone serves the records the last call asked for
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the data at "/status" equals "{{decision:domain-status-values:verified}}"
    And the answer asks for 0 DNS records
    When "agent" calls "list_domains"
    Then the data at "/domains" has 1 items
    And the data at "/domains/0/status" equals "{{decision:domain-status-values:verified}}"
    When "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call succeeds
    And the data at "/primary" equals "true"

  @rule:connect-domain-before-dns @rule:connect-domain-idempotent
  Scenario: A business connects names of its domain before their DNS is set, and gets the records still needed
    Given the domain "{{host:bakery}}" is registered with no records yet
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:bakery}}" }
      """
    Then the call succeeds
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "www.{{host:bakery}}" }
      """
    Then the call succeeds
    And the data at "/status" equals "{{decision:domain-status-values:pending}}"
    And the answer asks for 2 DNS records
    And the answer carries a plain-language sentence
    Given the DNS zone serves the records the last call asked for
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "www.{{host:bakery}}" }
      """
    Then the data at "/status" equals "{{decision:domain-status-values:verified}}"

  @rule:domain-nonexistent-address
  Scenario: Only a name that does not exist down to its registrable domain is a nonexistent address
    Given the target adopts the decision "domain-nonexistent-address"
    # The name exists only because a name below it does (an empty non-terminal): NODATA, not NXDOMAIN.
    And the DNS zone has the TXT record "_site-mcp-verify.{{host:early}}" with value "set before anything else"
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:early}}" }
      """
    Then the call succeeds
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "shop.{{host:nowhere}}" }
      """
    Then the call fails with "not_found"

  @rule:domain-other-site-same-as-missing
  Scenario: Another tenant's hostname answers exactly like a hostname that does not exist
    Given the hostname "{{host:taken}}" exists in DNS
    When "rival" calls "connect_domain" with:
      """
      { "hostname": "{{host:taken}}" }
      """
    Then the call succeeds
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:nowhere}}" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing"
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:taken}}" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing"
    When "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:nowhere}}" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing primary"
    When "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:taken}}" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing primary"

  @rule:domain-foreign-hostname-same-time
  Scenario: connect_domain makes the same DNS lookups for another tenant's hostname as for one that does not exist
    # Our decision: the same probes (the hostname and each parent domain), so the time taken tells nothing either.
    Given the target adopts the decision "domain-foreign-hostname-same-time"
    And the hostname "{{host:taken}}" exists in DNS
    When "rival" calls "connect_domain" with:
      """
      { "hostname": "{{host:taken}}" }
      """
    Then the call succeeds
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:nowhere}}" }
      """
    Then the call fails with "not_found"
    Given the DNS lookups so far are set aside
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:taken}}" }
      """
    Then the call fails with "not_found"
    And the DNS lookups since then for "{{host:taken}}" are the ones made for "{{host:nowhere}}"

  @rule:domain-write-owner-only @rule:authz-owner-only-stricter
  Scenario: An editor's connection can neither connect a domain nor choose the primary one
    Given the hostname "{{host:shop}}" exists in DNS
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call succeeds
    When the role of "olive" on "main" becomes "editor"
    And "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call fails with "owner_only"
    When "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call fails with "owner_only"
    # The refusal is the role's, not the address's: once it is verified, the same call fails for the editor and
    # succeeds for the owner (§4.3 "owner-only, stricter than owner-or-editor").
    When the role of "olive" on "main" becomes "owner"
    And "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call succeeds
    Given the DNS zone serves the records the last call asked for
    When "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the data at "/status" equals "{{decision:domain-status-values:verified}}"
    When the role of "olive" on "main" becomes "editor"
    And "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call fails with "owner_only"
    When the role of "olive" on "main" becomes "owner"
    And "agent" calls "set_primary_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call succeeds

  @rule:throttle-connect-domain
  Scenario: connect_domain has its own per-workspace throttle
    # The throttle values, the import cap, site limits per plan and the image cost are not shown (§8): the target's
    # own (fixtures part limits), or ours (spec/limits.json) when it adopts limit-values.
    Given the target's limit values are known
    Given the hostname "{{host:shop}}" exists in DNS
    When "agent" calls "connect_domain" {{limit:throttles.connect_domain.limit}} times with:
      """
      { "hostname": "{{host:shop}}" }
      """
    And "agent" calls "connect_domain" with:
      """
      { "hostname": "{{host:shop}}" }
      """
    Then the call fails with "throttled"
