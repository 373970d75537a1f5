Feature: Authentication at the MCP endpoint
  One endpoint, bearer credentials, tokens that are shown once and stored only as hashes (§1.4, §2.1, §4.1, §5).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }, { "key": "eddie" }, { "key": "vera" }],
        "sites": [{ "key": "main", "members": { "olive": "owner", "eddie": "editor", "vera": "viewer" } }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "site:read"

  # The 401 is checked apart from OAuth's authorization server (scenario below): a target without one, or with
  # registration switched off, still refuses an unauthenticated request this way (§4.1, §5).
  @rule:mcp-requires-bearer @rule:error-codes
  Scenario: Without a valid bearer token the endpoint answers 401
    When an unauthenticated client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint
    Then the HTTP status is 401
    And the response header "www-authenticate" contains "Bearer"
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"list_sites\",\"arguments\":{}}}" to the MCP endpoint with token "smcp_live_notarealtokenatall"
    Then the HTTP status is 401
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint with token "{{remembered:token:agent}}x"
    Then the HTTP status is 401

  # Where OAuth is offered (§5.1), the 401 tells a client where to begin it.
  @rule:mcp-requires-bearer @rule:protected-resource-metadata
  Scenario: The 401 points at the protected-resource metadata
    Given the target offers "oauth"
    When an unauthenticated client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint
    Then the HTTP status is 401
    And the response header "www-authenticate" contains "resource_metadata=\"{{base}}/.well-known/oauth-protected-resource/api/mcp\""
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"list_sites\",\"arguments\":{}}}" to the MCP endpoint with token "smcp_live_notarealtokenatall"
    Then the HTTP status is 401
    And the response header "www-authenticate" contains "resource_metadata=\"{{base}}/.well-known/oauth-protected-resource/api/mcp\""
    When a client GETs "/.well-known/oauth-protected-resource/api/mcp"
    Then the HTTP status is 200
    And the response JSON at "/resource" equals "{{base}}/api/mcp"

  # §4.1 "follows RFC 9728": the document at the root well-known path describes <base> itself (§3.1), and a client
  # must discard one that names another resource (§3.3).
  @rule:protected-resource-metadata-names-its-resource
  Scenario: A protected-resource document names the resource it was fetched for
    Given the target offers "oauth"
    When a client GETs "/.well-known/oauth-protected-resource"
    Then either nothing is served there, or the response JSON at "/resource" equals "{{base}}"

  @rule:mcp-endpoint-single @rule:three-ways-in @rule:token-live-prefix
  Scenario: An API token works at /api/mcp and carries the _live_ prefix
    When "agent" calls "list_sites"
    Then the call succeeds
    And the data at "/sites/0/websiteId" equals "{{site:main}}"
    And the token of "agent" starts with a prefix ending in "_live_"

  @rule:token-shown-once @rule:token-hash-only-stored
  Scenario: The token is returned at creation only; later reads show a short display prefix
    Then no read of the connection "agent" returns its token

  @rule:api-token-creation-choices @rule:token-shown-once
  Scenario: Creating an API-token connection takes the reach and the ticked scopes
    Given "olive" has a workspace connection "company" from "main" with scopes "crm:read"
    Then the connection view of "company" shows reach "workspace"
    And the connection view of "company" lists scopes "site:read, crm:read"
    And no read of the connection "company" returns its token
    When "company" calls "list_sites"
    Then the call succeeds

  @rule:connection-created-by-site-owner-only
  Scenario: An editor or a viewer cannot create a connection
    Then "eddie" cannot create a connection to "main"
    And "vera" cannot create a connection to "main"

  @rule:oauth-dynamic-client-registration @rule:oauth-external-idp @rule:oauth-token-verified-at-edge @rule:protected-resource-metadata
  Scenario: OAuth discovery leads to an authorization server with dynamic client registration; a forged token is refused
    Given the target offers "oauth"
    Then the protected-resource metadata names the MCP endpoint and an authorization server that offers dynamic client registration
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint with token "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    Then the HTTP status is 401

  @rule:session-cookie-secure-over-https
  Scenario: The signed-in owner's session cookie is HttpOnly and SameSite=Strict, and Secure over https (our decision)
    # The app's sign-in is reached as a browser reaches it, through the redirect of /dashboard/connect (§4.1).
    Given the target adopts the decision "session-cookie-secure-over-https"
    When "olive" signs in to the app
    Then the session cookie is HttpOnly and SameSite=Strict, and Secure when the target is reached over https

  @rule:sign-in-throttled-per-account
  Scenario: Failed sign-ins are counted per account: past the limit even the right password, from a new address, is refused
    # The limits (spec/limits.json signIn) are our decision.
    Given the target adopts the decision "sign-in-throttled-per-account"
    When someone fails to sign in as "olive" as often as the account limit allows, each time from another address
    Then signing in as "olive" with the right password from another address answers 429 with Retry-After
    When 12 wrong passwords for "eddie" arrive at once, each from another address
    Then signing in as "eddie" with the right password from another address answers 429 with Retry-After

  @rule:sign-in-known-address-admitted
  Scenario: Failures from elsewhere do not lock the owner out at an address they signed in from before
    # Someone who knows the owner's email must not lock the owner out of the app.
    Given the target adopts the decision "sign-in-known-address-admitted"
    When "olive" signs in to the app from an address of their own
    And someone fails to sign in as "olive" as often as the account limit allows, each time from another address
    Then signing in as "olive" with the right password from another address answers 429 with Retry-After
    And signing in as "olive" with the right password from their own address succeeds

  @rule:sign-in-throttled-per-address
  Scenario: Failed sign-ins are counted per client address too: past the limit every sign-in from it is refused
    Given the target adopts the decision "sign-in-throttled-per-address"
    When one address fails to sign in as often as the address limit allows, each time as another unknown email
    Then signing in as "eddie" with the right password from that address answers 429 with Retry-After
    And signing in as "eddie" with the right password from another address succeeds

  @rule:sign-in-unknown-email-same-cost
  Scenario: A wrong password takes about as long for an email without an account as for one with an account
    Given the target adopts the decision "sign-in-unknown-email-same-cost"
    Then wrong passwords for "vera" and for unknown emails take about the same time
