Feature: Errors and the result envelope
  Every tool call answers { ok, data } or { ok: false, error }; nothing surfaces as a server error (§4.1, §7).
  The generic checks (not_a_server_error, envelope_conformance, response_schema_conformance, error_code_known)
  run on every call of every scenario; these scenarios aim them at odd input.

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write"

  @rule:error-success-shape @rule:tool-result-envelope @rule:tool-output-schema
  Scenario: A success is { ok: true, data } matching the tool's output schema
    When "agent" calls "get_site_overview"
    Then the call succeeds

  @rule:error-failure-shape @rule:never-a-server-error @rule:error-codes
  Scenario Outline: Odd input answers an envelope, never a crash
    When "agent" calls "<tool>" with:
      """
      <args>
      """
    Then the call fails with "<code>"

    Examples:
      | tool                | code              | args                                                 |
      | no_such_tool        | not_found         | {}                                                   |
      | get_page            | validation_failed | { "pageId": 42 }                                     |
      | get_page            | validation_failed | { "pageId": "../../etc/passwd" }                     |
      | get_page            | not_found         | { "pageId": "page_nope" }                            |
      | update_section_text | validation_failed | { "sectionId": "x", "field": "a/b/c/d", "text": "" } |
      | get_page            | validation_failed | { "pageId": "p", "extra": { "deep": [1, 2, 3] } }    |

  @rule:never-a-server-error
  Scenario: Malformed JSON-RPC gets a protocol error, not a 5xx
    When a client posts "{not json" to the MCP endpoint with token "{{remembered:token:agent}}"
    Then the HTTP status is 400
    When a client posts "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}" to the MCP endpoint with token "{{remembered:token:agent}}"
    Then the HTTP status is below 500
    When a client posts "[]" to the MCP endpoint with token "{{remembered:token:agent}}"
    Then the HTTP status is below 500
