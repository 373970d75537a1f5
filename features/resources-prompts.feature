Feature: Resources, prompts and what is deliberately absent
  Four read-only resources, three prompts, and no human-only action over MCP (§1.7, §1.8, §4.4, §4.5, §6, §8).

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read"

  @rule:resources-four @rule:resources-default-site @rule:resources-and-prompts-offered @rule:resources-need-site-read @rule:prompts-three
  Scenario: The resources read the default site and the prompts guide the caller
    Then the resources are exactly "svc://site/overview, svc://site/pages, svc://site/draft-changes, svc://site/brand"
    And the resource "svc://site/overview" of "agent" shows website "{{site:main}}"
    And the prompts are exactly "write_news_post, prep_for_launch, seasonal_update"
    And the prompt "write_news_post" of "agent" returns guidance
    When "olive" loses access to "main"
    Then the resource "svc://site/overview" of "agent" is refused with "access_denied"

  @rule:human-only-no-deletion @rule:human-only-no-erasure @rule:human-only-no-billing @rule:human-only-no-people-management @rule:human-only-no-domain-lifecycle @rule:human-only-no-text-generation @rule:human-only-no-custom-head-code @rule:no-outbound-events
  Scenario: No tool deletes, erases, bills, manages people, trades domains, generates text, sets head code or subscribes
    Then no tool name matches "delete|erase|remove|revoke|billing|invoice_pay|charge|buy|renew|transfer|generate_text|write_copy|head|script|webhook|subscribe"
    And no tool input has a property matching "^(html|css|headCode|script|customCode|webhook)$"

  @rule:tools-list-size
  Scenario: tools/list over the wire stays within 40,000 characters
    Then the serialized tools/list result is at most 40000 characters
