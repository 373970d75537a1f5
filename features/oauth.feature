Feature: OAuth 2.1 clients are bound to exactly one connection
  A chat client connects through OAuth 2.1: the owner signs in and approves, and the verified token is bound to
  exactly the connection that approval created. No caller-supplied id chooses another, and nothing is guessed from
  the owner's newest connection (§5.1). The owner's sign-in and consent come from the target's fixtures protocol
  (`oauth-consent`); the client side is the MCP SDK's own flow.

  Background:
    Given the target offers "oauth"
    And a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }, { "key": "second", "members": { "olive": "owner" } }] }
      """

  @rule:oauth-no-caller-profile-id
  Scenario: A caller-supplied connection or profile id never chooses the connection
    Given "olive" has a connection "editor" to "second" with scopes "site:read, content:write"
    And "olive" approves a new OAuth client "chat" for "main" with scopes "site:read"
    When the OAuth client "chat" names the connection "editor" in every request
    And "chat" calls "list_sites"
    Then the call succeeds
    And the data contains "{{site:main}}"
    And the data does not contain "{{site:second}}"
    When "chat" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Not with this client" }
      """
    Then the call fails

  @rule:oauth-no-newest-connection-guess @rule:oauth-token-verified-at-edge
  Scenario: A newer connection of the same owner is never picked; each client's token reaches only its own
    Given "olive" approves a new OAuth client "chat" for "main" with scopes "site:read"
    And "olive" has a connection "newer" to "second" with scopes "site:read, content:write"
    And "olive" approves a new OAuth client "later" for "second" with scopes "site:read, content:write"
    When "chat" calls "list_sites"
    Then the call succeeds
    And the data contains "{{site:main}}"
    And the data does not contain "{{site:second}}"
    When "chat" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Not with this client" }
      """
    Then the call fails
    When "later" calls "list_sites"
    Then the call succeeds
    And the data contains "{{site:second}}"
    And the data does not contain "{{site:main}}"
    When "later" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the call fails

  @rule:oauth-registration-throttled-per-address
  Scenario: Client registrations are counted per client address; past the allowance one is refused before its body is read
    # Registration is open to anyone (§5.1); the allowance (spec/limits.json oauthRegistration) is our decision.
    Given the target adopts the decision "oauth-registration-throttled-per-address"
    When an OAuth client registers from one address until its allowance is spent
    Then the next registration from that address answers 429 with Retry-After and an OAuth JSON error, whatever its body
    And a registration from another address is answered

  @rule:oauth-registration-metadata-capped
  Scenario: Client metadata over the cap is refused
    # The cap (spec/limits.json oauthRegistration) is our decision; the source shows none.
    Given the target adopts the decision "oauth-registration-metadata-capped"
    When an OAuth client registers with metadata one byte over the cap
    Then the registration is refused with a 4xx and an OAuth JSON error, and names no client

  @rule:oauth-registration-size-announced
  Scenario: Client metadata over the cap sent without announcing its size is refused
    # Refusing a body without Content-Length (chunked) before reading it is our decision; the source shows no cap.
    Given the target adopts the decision "oauth-registration-size-announced"
    When an OAuth client registers with metadata one byte over the cap, chunked without a Content-Length
    Then the registration is refused with a 4xx and an OAuth JSON error, and names no client

  @rule:oauth-no-error-redirect-unverified-client
  Scenario: A failing authorization request of a client that never redeemed a code leaves the browser where it is
    # Registration is open to anyone (§5.1): redirecting a new client's errors would be an open redirect. Ours.
    Given the target adopts the decision "oauth-no-error-redirect-unverified-client"
    When an OAuth client registers with the redirect URI "https://redirect.invalid/conformance-callback"
    Then authorization requests of that client that fail do not send the browser to its redirect URI

  @rule:oauth-challenge-scope-every-scope
  Scenario: The 401 challenge asks for every scope the protected-resource metadata lists
    # The source names no scope for the challenge; asking for every one, for the owner to untick at consent, is ours.
    Given the target adopts the decision "oauth-challenge-scope-every-scope"
    When an unauthenticated client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint
    Then the HTTP status is 401
    And the challenge's scope parameter names every scope the protected-resource metadata lists

  @rule:oauth-authorization-server-metadata-path-inserted
  Scenario: The authorization server's metadata is at the RFC 8414 address of its issuer
    # The source names RFC 9728 for discovery only; serving RFC 8414's path-inserted address too is ours.
    Given the target adopts the decision "oauth-authorization-server-metadata-path-inserted"
    Then the authorization server the protected-resource metadata names serves its metadata at the RFC 8414 address of its issuer

  @rule:oauth-client-id-metadata-documents
  Scenario: A client named by the https address of its metadata document is approved without registering
    # The source enables dynamic registration; taking metadata documents as well, as 2026-era clients expect, is ours.
    Given the target adopts the decision "oauth-client-id-metadata-documents"
    And "olive" approves an OAuth client "rye" named by its metadata document on the kit website for "main" with scopes "site:read"
    When "rye" calls "list_sites"
    Then the call succeeds
    And the data contains "{{site:main}}"
    And the data does not contain "{{site:second}}"

  @rule:oauth-client-documents-no-redirect
  Scenario: A client whose metadata document address redirects is not approved
    # Taking metadata documents, and only at their own address, is ours.
    Given the target adopts the decision "oauth-client-documents-no-redirect"
    Then an OAuth client named by a metadata document address of the kit website that redirects is not approved for "main"
