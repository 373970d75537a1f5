Feature: Resources, prompts and what is deliberately absent
  Four read-only resources, three prompts, and no human-only action over MCP (§1.7, §1.8, §4.1, §4.4, §4.5, §6, §8).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }, { "key": "second", "members": { "olive": "owner" } }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "site:read"

  @rule:resources-four @rule:resources-default-site @rule:resources-and-prompts-offered @rule:resources-need-site-read @rule:prompts-three
  Scenario: The resources read the default site like their tools, and the prompts guide the caller
    Given the target offers "resources"
    And the target offers "prompts"
    Then the resources are exactly "svc://site/overview, svc://site/pages, svc://site/draft-changes, svc://site/brand"
    And the resource "svc://site/overview" of "agent" shows website "{{site:main}}"
    And every resource of "agent" answers what its tool answers
    And the prompts are exactly "write_news_post, prep_for_launch, seasonal_update"
    And every prompt of "agent" returns guidance that uses its arguments
    And the activity of "agent" has an entry for "svc://site/overview" with outcome "ok"
    When "olive" loses access to "main"
    Then the resource "svc://site/overview" of "agent" is refused with "access_denied"
    And the resource "svc://site/pages" of "agent" is refused with "access_denied"

  @rule:human-only-no-deletion @rule:human-only-no-erasure @rule:human-only-no-billing @rule:human-only-no-people-management @rule:human-only-no-domain-lifecycle @rule:human-only-no-text-generation @rule:human-only-no-custom-head-code @rule:no-outbound-events
  Scenario: No tool deletes, erases, bills, manages people, trades domains, generates text, sets head code or subscribes
    Then no tool name matches "delete|erase|remove|revoke|purge|billing|subscription|payment|invoice_pay|charge|refund|buy|purchase|renew|transfer|generate_text|write_copy|rewrite|head|script|webhook|subscribe|role"
    And no tool input has a property matching "^(html|css|style|headCode|head|script|customCode|webhook|webhookUrl|callbackUrl)$"

  @rule:tool-catalogue-exact
  Scenario: tools/list names exactly the tools of the catalogue
    Then the tools listed are exactly the catalogue of §4.3

  @rule:tools-since
  Scenario: The tools of crm:write, domain:write, communications:write, access:write and ai:generate exist (§9.2)
    Then the tools of the scopes "crm:write, domain:write, communications:write, access:write, ai:generate" are listed and answer calls, as they exist since "2026-07-28"

  @rule:tools-list-size
  Scenario: tools/list over the wire stays within 40,000 characters
    Then the serialized tools/list result of "agent" is at most 40000 characters

  @rule:tools-list-plain-object-inputs
  Scenario: tools/list publishes plain-object inputs (our decision, for clients that reject a root oneOf)
    Given the target adopts the decision "tools-list-plain-object-inputs"
    Then every tool input schema in tools/list is a plain object

  @rule:tools-list-single-type-schemas
  Scenario: tools/list gives no value a list of types (our decision, for clients with a single-type schema dialect)
    Given the target adopts the decision "tools-list-single-type-schemas"
    Then no schema in tools/list gives a value a list of types

  @rule:tools-list-no-output-schema
  Scenario: tools/list publishes no outputSchema (our decision: the output schemas do not fit the size budget)
    Given the target adopts the decision "tools-list-no-output-schema"
    Then no tool in tools/list declares an outputSchema

  @rule:resources-default-site
  Scenario: On workspace reach the resources read the site whose Developers page created the connection
    Given the target offers "resources"
    And the target adopts the decision "resources-default-site"
    And "olive" has a workspace connection "ws" from "second" with scopes "site:read"
    Then the resource "svc://site/overview" of "ws" shows website "{{site:second}}"

