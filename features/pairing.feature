Feature: Device-code pairing and the discovery file
  The command-line tool pairs with a user code; an owner approves, possibly narrower; the poll hands out an
  ordinary connection's token once (§2.7, §3, §4.1, §5.3–5.5).

  Background:
    Given the target offers "pairing"
    And a workspace:
      """
      { "users": [{ "key": "olive" }, { "key": "eddie" }],
        "sites": [{ "key": "main", "members": { "olive": "owner", "eddie": "editor" }, "published": true }] }
      """

  @rule:pairing-start-issues-user-code @rule:pairing-poll-pending-before-approval @rule:pairing-grant-only-narrower @rule:pairing-token-returned-once @rule:pairing-creates-ordinary-connection @rule:pairing-no-second-path @rule:pair-poll-website-id
  Scenario: Start, poll pending, approve narrower, get the token once, use it like any connection
    # The pairing field and status names are not shown (§4.1, §3): ours (pairing-field-names) or the target's declared ones.
    Given the target's pairing field names are known
    When a command-line tool starts a pairing asking for "site:read, content:write, publish"
    Then the HTTP status is 200
    When the command-line tool polls
    Then the poll answers "pending" without a token
    When "olive" approves the pairing for "main" leaving "site:read, content:write, crm:write" ticked
    And the command-line tool polls
    Then the poll answers approved with scopes "site:read, content:write" and website "{{site:main}}"
    When the command-line tool polls
    Then the poll answers "redeemed" without a token
    When the polled token is used as connection "cli"
    And "cli" calls "list_pages"
    Then the call succeeds
    When "cli" calls "prepare_publish"
    Then the call fails with "scope_denied"

  @rule:pairing-field-names
  Scenario: The pairing bodies carry our field names, statuses and poll interval
    # Our choice where §4.1 shows no field names and §3 no state names (spec/schemas/pairing.schema.json).
    Given the target adopts the decision "pairing-field-names"
    When a command-line tool starts a pairing asking for "site:read, content:write"
    Then the HTTP status is 200
    And the response JSON is a PairStartResponse of the pairing schema
    And the response JSON at "/interval" equals "2"
    When the command-line tool polls
    Then the response JSON is a PairPollResponse of the pairing schema
    And the response JSON at "/status" equals "pending"
    When "olive" approves the pairing for "main" leaving "site:read" ticked
    And the command-line tool polls
    Then the response JSON is a PairPollResponse of the pairing schema
    And the response JSON at "/status" equals "approved"
    And the response JSON at "/scopes" equals "[\"site:read\"]"
    When the command-line tool polls
    Then the response JSON is a PairPollResponse of the pairing schema
    And the response JSON at "/status" equals "redeemed"

  @rule:pairing-approval-owner-only
  Scenario: An editor cannot approve a pairing
    # The pairing field and status names are not shown (§4.1, §3): ours (pairing-field-names) or the target's declared ones.
    Given the target's pairing field names are known
    When a command-line tool starts a pairing asking for "site:read"
    And "eddie" tries to approve the pairing for "main" leaving "site:read" ticked
    Then the approval was refused
    When the command-line tool polls
    Then the poll answers "pending" without a token

  @rule:pairing-bound-to-first-workspace
  Scenario: Once its own owner opened the code, an owner of another company can neither see nor approve the pairing
    # Approving it would hand the requesting tool a token to the other owner's website. The binding is our decision.
    Given the target adopts the decision "pairing-bound-to-first-workspace"
    And the target's pairing field names are known
    When a command-line tool starts a pairing asking for "site:read"
    And "olive" opens the approval page of the pairing in a browser
    Given a workspace:
      """
      { "users": [{ "key": "mallory" }], "sites": [{ "key": "elsewhere", "members": { "mallory": "owner" } }] }
      """
    When "mallory" opens the approval page of the pairing in a browser
    Then the approval page offers no approval
    When "mallory" tries to approve the pairing for "elsewhere" leaving "site:read" ticked
    Then the approval was refused
    When the command-line tool polls
    Then the poll answers "pending" without a token

  @rule:pairing-company-wide @rule:pairing-company-wide-only-without-website @rule:pair-poll-website-id
  Scenario: A company without a website approves company-wide; then the agent creates the first site
    # The pairing field and status names are not shown (§4.1, §3): ours (pairing-field-names) or the target's declared ones.
    Given the target's pairing field names are known
    Given a workspace:
      """
      { "users": [{ "key": "nina" }, { "key": "ned" }], "sites": [] }
      """
    When a command-line tool starts a pairing asking for "site:read, workspace:write"
    And "ned" tries to approve the pairing company-wide leaving "site:read, workspace:write" ticked
    Then the approval was refused
    When "nina" tries to approve the pairing company-wide leaving "site:read, workspace:write" ticked
    And the command-line tool polls
    Then the poll answers approved with scopes "site:read, workspace:write" and website "null"
    When the polled token is used as connection "cli"
    And "cli" calls "create_site" with:
      """
      { "businessName": "Nina's Florist" }
      """
    Then the call succeeds
    When a command-line tool starts a pairing asking for "site:read"
    And "olive" tries to approve the pairing company-wide leaving "site:read" ticked
    Then the approval was refused

  @rule:pairing-admin-needs-website
  Scenario: The admin variant refuses a company-wide approval
    # The pairing field and status names are not shown (§4.1, §3): ours (pairing-field-names) or the target's declared ones.
    Given the target's pairing field names are known
    Given a workspace:
      """
      { "users": [{ "key": "nina" }], "sites": [] }
      """
    When a command-line tool starts a admin pairing asking for "site:read"
    And "nina" tries to approve the pairing company-wide leaving "site:read" ticked
    Then the approval was refused

  @rule:readonly-pairing-delivery-token @rule:delivery-token-read-published-only @rule:delivery-token-not-a-connection @rule:delivery-token-cannot-write
  Scenario: A read-only pairing mints a delivery token that reads the live site only, writes nothing and is not an MCP connection
    # The pairing field names are ours or declared (§4.1 "not shown"); the delivery address is ours (below).
    Given the target's pairing field names are known
    When a command-line tool starts a read-only pairing asking for "site:read"
    And "olive" approves the pairing for "main" leaving "" ticked
    And the command-line tool polls
    # The draft now differs from the live site: only the live one may be read (§2.7 "reads published content only").
    And "olive" edits "main/home/hero" field "heading" in the app to "Draft only {{random:draft}}"
    And the state of "main" is remembered
    And a client reads the published site with the polled token
    Then the HTTP status is 200
    And the response JSON at "/format" equals "PortableSiteV1"
    And the response body does not contain "Draft only {{random:draft}}"
    # §2.7 "cannot write": no method at the delivery address writes, and the site stays as it was.
    When a client tries to write to the published site with the polled token by PUT
    Then the HTTP status is a refusal
    When a client tries to write to the published site with the polled token by POST
    Then the HTTP status is a refusal
    When a client tries to write to the published site with the polled token by PATCH
    Then the HTTP status is a refusal
    When a client tries to write to the published site with the polled token by DELETE
    Then the HTTP status is a refusal
    And the draft of "main" is unchanged
    And the published state of "main" is unchanged
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" to the MCP endpoint with token "{{remembered:polled-token}}"
    Then the HTTP status is 401
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"update_business_name\",\"arguments\":{\"businessName\":\"Written with a delivery token\"}}}" to the MCP endpoint with token "{{remembered:polled-token}}"
    Then the HTTP status is 401
    And the draft of "main" is unchanged

  @rule:auth-md-discovery @rule:auth-md-no-pre-claim-token
  Scenario: /auth.md describes the ceremony, the endpoints, every scope and what is not implemented
    Given the target offers "auth-md"
    When a client GETs "/auth.md"
    Then the HTTP status is 200
    And the response body contains "/v1/cli/pair/start"
    And the response body contains "/v1/cli/pair/poll"
    And the response body names every scope of the catalogue, each on a line of its own with a description
    And the response body contains "No pre-claim token exists"
    And the response body contains "No account is ever created for a human"
    And the response body contains "Deliberately not implemented"

  @rule:auth-md-ways-in-and-human-only
  Scenario: /auth.md names the three ways in and, as not implemented, the §1.7 list and revoking (our decision)
    Given the target offers "auth-md"
    # What else /auth.md says is our decision: the three ways in, and as not implemented the §1.7 list and revoking.
    Given the target adopts the decision "auth-md-ways-in-and-human-only"
    When a client GETs "/auth.md"
    Then the response body contains "OAuth 2.1"
    And the response body contains "Bearer"
    And the response body contains "/api/mcp"
    And the response body contains "Device-code pairing"
    And the response body contains "/.well-known/oauth-protected-resource/api/mcp"
    And the response body contains "revoking"
    # §1.7's human-only operations, each named.
    And the response body contains "deleting a site or a page"
    And the response body contains "erasing a contact"
    And the response body contains "billing changes"
    And the response body contains "people management beyond inviting"
    And the response body contains "transferring or removing a domain"
    And the response body contains "custom head code"
    And the response body contains "text generation"
    And the response body does not contain "not offered"

  @rule:app-pages-frame-protection
  Scenario: The approval page /dashboard/connect and its redirect cannot be framed or sniffed and send no referrer to other origins
    # Which headers protect an app page is our decision (the source shows no headers); §4.1 names this page.
    Given the target adopts the decision "app-pages-frame-protection"
    When a client GETs "/dashboard/connect" without following redirects
    Then the response header "x-frame-options" equals "DENY"
    And the response header "x-content-type-options" equals "nosniff"
    And the response header "referrer-policy" equals "same-origin"
    When a client GETs "/dashboard/connect"
    Then the HTTP status is below 400
    And the Content-Security-Policy directive "frame-ancestors" is "'none'"
    And the response header "x-frame-options" equals "DENY"
    And the response header "x-content-type-options" equals "nosniff"
    And the response header "referrer-policy" equals "same-origin"

  @rule:dashboard-connect-lists-scopes @rule:pairing-grant-only-narrower
  Scenario: The approval page lists every requested scope with a control to untick it, and an unticked scope is not granted
    # The verification address and the poll's fields are named as the target declares (§4.1 "not shown"); the page is a browser page.
    Given the target's pairing field names are known
    When a command-line tool starts a pairing asking for "site:read, content:write, crm:read"
    And "olive" opens the approval page of the pairing in a browser
    Then the approval page lists every requested scope with a ticked checkbox to untick it
    When "olive" unticks "crm:read" and approves on the page
    And the command-line tool polls
    Then the poll answers approved with scopes "site:read, content:write" and website "{{site:main}}"

  @rule:pair-start-throttled-per-address
  Scenario: Pairing starts are counted per client address; past the allowance a start is refused before its body is read
    # The allowance (spec/limits.json pairStart) and the answer are our decision; the source shows no throttle here.
    Given the target adopts the decision "pair-start-throttled-per-address"
    When a command-line tool starts pairings from one address until its allowance is spent
    Then the next start from that address answers 429 with Retry-After and a JSON error, whatever its body
    And a start from another address is answered
