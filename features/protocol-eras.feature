Feature: The MCP protocol eras at /api/mcp
  The reference speaks two MCP protocol eras at one endpoint (§9.3, decisions: the source names no MCP revision): the
  2025-11-25 exchange (initialize first) and the 2026-07-28 exchange (server/discover, the revision in each request's
  _meta). The kit runs every feature in each era a target offers; the scenarios here check the wire of the 2026 era
  itself, with raw requests, and run only in that era (@era:2026-07-28) and only for a target that adopts the decision.

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read"

  @rule:mcp-eras-both
  Scenario: One endpoint serves the same catalogue and the same calls in both eras
    Given the target adopts the decision "mcp-eras-both"
    Then "agent" lists the same tools, resources and prompts in the eras "2025-11-25" and "2026-07-28"
    And "agent" calling "list_sites" gets the same answer in the eras "2025-11-25" and "2026-07-28"

  @rule:mcp-2026-discover @era:2026-07-28
  Scenario: server/discover answers without an earlier exchange: the revisions, the capabilities, the instructions
    Given the target adopts the decision "mcp-2026-discover"
    When "agent" sends the 2026-07-28 request "server/discover"
    Then the HTTP status is 200
    And the JSON-RPC result at "/supportedVersions" lists "2026-07-28"
    And the JSON-RPC result at "/capabilities/tools" is an object
    And the JSON-RPC result at "/instructions" is a non-empty string

  @rule:mcp-2026-result-type @rule:mcp-2026-server-info @era:2026-07-28
  Scenario Outline: Every result of the 2026 era says its kind and names the server: <method>
    Given the target adopts the decision "mcp-2026-result-type"
    And the target adopts the decision "mcp-2026-server-info"
    When "agent" sends the 2026-07-28 request "<method>" with params:
      """
      <params>
      """
    Then the HTTP status is 200
    And the JSON-RPC result at "/resultType" equals "complete"
    And the JSON-RPC result at "/_meta/io.modelcontextprotocol~1serverInfo/name" is a non-empty string
    And the JSON-RPC result at "/_meta/io.modelcontextprotocol~1serverInfo/version" is a non-empty string

    Examples:
      | method          | params                                     |
      | server/discover | {}                                         |
      | tools/list      | {}                                         |
      | tools/call      | { "name": "list_sites", "arguments": {} }  |
      | resources/list  | {}                                         |
      | resources/read  | { "uri": "svc://site/overview" }           |
      | prompts/list    | {}                                         |

  @rule:mcp-2026-cache-hints @era:2026-07-28
  Scenario Outline: The catalogue may be kept five minutes by anyone, a resource's contents by nobody: <method>
    Given the target adopts the decision "mcp-2026-cache-hints"
    When "agent" sends the 2026-07-28 request "<method>" with params:
      """
      <params>
      """
    Then the HTTP status is 200
    And the JSON-RPC result at "/ttlMs" equals <ttlMs>
    And the JSON-RPC result at "/cacheScope" equals "<cacheScope>"

    Examples:
      | method                   | params                            | ttlMs  | cacheScope |
      | server/discover          | {}                                | 300000 | public     |
      | tools/list               | {}                                | 300000 | public     |
      | prompts/list             | {}                                | 300000 | public     |
      | resources/list           | {}                                | 300000 | public     |
      | resources/templates/list | {}                                | 300000 | public     |
      | resources/read           | { "uri": "svc://site/overview" }  | 0      | private    |

  @rule:mcp-2026-unsupported-version @era:2026-07-28
  Scenario: A revision the server does not speak is refused with the ones it does
    Given the target adopts the decision "mcp-2026-unsupported-version"
    When "agent" sends the request "tools/list" naming the protocol revision "2099-01-01"
    Then the HTTP status is 400
    And the JSON-RPC error code is -32022
    And the JSON-RPC error at "/data/supported" lists "2026-07-28"
    And the JSON-RPC error at "/data/requested" equals "2099-01-01"

  @rule:mcp-2026-header-mismatch @era:2026-07-28
  Scenario Outline: A header that is missing or disagrees with the body is refused before anything runs: <case>
    Given the target adopts the decision "mcp-2026-header-mismatch"
    When "agent" sends the 2026-07-28 request "tools/call" with the header "<header>" as "<value>" and params:
      """
      { "name": "list_sites", "arguments": {} }
      """
    Then the HTTP status is 400
    And the JSON-RPC error code is -32020
    And the activity of "agent" has 0 entries

    Examples:
      | case                        | header       | value       |
      | Mcp-Name names another tool | Mcp-Name     | list_pages  |
      | Mcp-Method names another    | Mcp-Method   | tools/list  |
      | Mcp-Method missing          | Mcp-Method   |             |
      | Mcp-Name missing            | Mcp-Name     |             |

  @rule:mcp-2026-resource-not-found
  Scenario: Reading a resource the server does not list is invalid params naming the uri, in every era
    Given the target adopts the decision "mcp-2026-resource-not-found"
    When "agent" reads the resource "svc://site/nowhere" expecting a refusal
    Then the JSON-RPC error code is -32602
    And the JSON-RPC error at "/data/uri" equals "svc://site/nowhere"
