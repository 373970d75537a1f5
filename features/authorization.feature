Feature: Authorization on every call
  The creator's live role is re-read on every call; denials come in a fixed order; another tenant's ids
  answer exactly like missing ones (§2.1, §4.2, §5.6, §5.7, §5.8).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" } }, { "key": "second", "members": { "olive": "owner" } }] }
      """
    And a workspace:
      """
      { "users": [{ "key": "mallory" }], "sites": [{ "key": "foreign", "members": { "mallory": "owner" } }] }
      """

  @rule:connection-live-role-recheck @rule:connection-never-exceeds-creator @rule:authz-every-call
  Scenario: A creator demoted to viewer can still read but no longer edit, and regains editing when promoted
    Given "olive" has a connection "agent" to "main" with scopes "site:read, content:write"
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Before" }
      """
    Then the call succeeds
    When the role of "olive" on "main" becomes "viewer"
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "After" }
      """
    Then the call fails with "access_denied"
    When "agent" calls "get_site_overview"
    Then the call succeeds
    When the role of "olive" on "main" becomes "editor"
    And "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Editor again" }
      """
    Then the call succeeds

  @rule:connection-revoked-share-disables @rule:authz-denial-order @rule:connection-live-role-recheck
  Scenario: Removing the creator's membership disables the connection; a missing scope is named first
    Given "olive" has a connection "agent" to "main" with scopes "site:read"
    When "agent" calls "get_site_overview"
    Then the call succeeds
    # The missing scope alone first: the code the target answers for it (§7.4 shows none) is learned here.
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "New heading" }
      """
    Then the call fails with "scope_denied"
    When "olive" loses access to "main"
    And "agent" calls "get_site_overview"
    Then the call fails with "access_denied"
    When "agent" calls "list_pages"
    Then the call fails with "access_denied"
    # Both causes: §5.7 names the scope first.
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "New heading" }
      """
    Then the call fails with "scope_denied", named before "access_denied"

  @rule:authz-denial-order @rule:authz-agency-area-off @rule:authz-every-call
  Scenario: The scope is named before a changed role, and a changed role before a switched-off area
    Given "olive" has a connection "docs" to "main" with scopes "communications:write"
    And "olive" has a connection "nodocs" to "main" with scopes "site:read"
    And "olive" has a connection "elsewhere" to "second" with scopes "communications:write"
    When "docs" calls "list_sendable_documents"
    Then the call succeeds
    # Each cause alone first: the code the target answers for each (§7.4 shows none) is learned here.
    When "nodocs" calls "list_sendable_documents"
    Then the call fails with "scope_denied"
    When "olive" loses access to "second"
    And "elsewhere" calls "list_sendable_documents"
    Then the call fails with "access_denied"
    When the workspace of "olive" changes settings:
      """
      { "areasOff": ["invoicing"] }
      """
    And "docs" calls "list_sendable_documents"
    Then the call fails with "area_disabled"
    # Causes together: §5.7 names the scope first, then the changed access, then the area.
    When "nodocs" calls "list_sendable_documents"
    Then the call fails with "scope_denied", named before "area_disabled"
    When "olive" loses access to "main"
    And "docs" calls "list_sendable_documents"
    Then the call fails with "access_denied", named before "area_disabled"
    When "nodocs" calls "list_sendable_documents"
    Then the call fails with "scope_denied", named before "access_denied"

  @rule:authz-cross-tenant-not-found @rule:activity-logs-cross-tenant-misses
  Scenario: Another tenant's website, page and section answer exactly like ones that do not exist
    Given "olive" has a workspace connection "agent" from "main" with scopes "site:read, content:write"
    When "agent" calls "get_site_overview" with:
      """
      { "websiteId": "site_doesnotexist0" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing site"
    When "agent" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:foreign}}" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing site"
    When "agent" calls "get_page" with:
      """
      { "websiteId": "{{site:main}}", "pageId": "page_doesnotexist0" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing page"
    When "agent" calls "get_page" with:
      """
      { "websiteId": "{{site:main}}", "pageId": "{{page:foreign/home}}" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing page"
    When "agent" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "sec_doesnotexist0", "field": "{{field:heading}}", "text": "Mine now" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing section"
    When "agent" calls "update_section_text" with:
      """
      { "websiteId": "{{site:main}}", "sectionId": "{{section:foreign/home/hero}}", "field": "{{field:heading}}", "text": "Mine now" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing section"
    And the answer does not contain "mallory"
    And the activity of "agent" has an entry for "update_section_text" with outcome "not_found"
    And no activity entry of "agent" contains "{{site:foreign}}"

  @rule:website-id-optional-on-website-reach @rule:list-sites-reach @rule:authz-cross-tenant-not-found
  Scenario: A website-reach connection works without websiteId and cannot reach another site of its own workspace
    Given "olive" has a connection "pinned" to "main" with scopes "site:read"
    When "pinned" calls "list_sites"
    Then the data at "/sites" has 1 items
    And the data at "/sites/0/websiteId" equals "{{site:main}}"
    When "pinned" calls "get_site_overview"
    Then the call succeeds
    And the data at "/websiteId" equals "{{site:main}}"
    When "pinned" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the call succeeds
    When "pinned" calls "get_site_overview" with:
      """
      { "websiteId": "site_doesnotexist0" }
      """
    Then the call fails with "not_found"
    And the answer is remembered as "missing site"
    When "pinned" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:second}}" }
      """
    Then the call fails with "not_found"
    And the answer looks exactly like the remembered "missing site"
    # Ids of the sibling site, not its websiteId: pinned to one site, the connection reaches none of another's.
    When "pinned" calls "get_page" with:
      """
      { "pageId": "{{page:second/home}}" }
      """
    Then the call fails with "not_found"
    Given "olive" has a connection "pinned-editor" to "main" with scopes "content:write"
    And the state of "second" is remembered
    When "pinned-editor" calls "update_section_text" with:
      """
      { "sectionId": "{{section:second/home/hero}}", "field": "{{field:heading}}", "text": "Across the fence" }
      """
    Then the call fails with "not_found"
    And the draft of "second" is unchanged

  @rule:website-id-required-on-workspace-reach @rule:list-sites-reach @rule:verification-list-sites-overview
  Scenario: A workspace connection sees every site of its workspace and must name one
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read"
    When "ws" calls "list_sites"
    Then the call succeeds
    And the data at "/sites" has 2 items
    And the data contains "{{site:main}}"
    And the data contains "{{site:second}}"
    And the data does not contain "{{site:foreign}}"
    When "ws" calls "get_site_overview"
    Then the call fails with "website_required"
    When "ws" calls "list_pages"
    Then the call fails with "website_required"
    When "ws" calls "get_site_overview" with:
      """
      { "websiteId": "{{site:second}}" }
      """
    Then the call succeeds
    And the data at "/websiteId" equals "{{site:second}}"
    # The creator's live membership bounds the list too (§1.5: never beyond its creator's permissions).
    When "olive" loses access to "second"
    And "ws" calls "list_sites"
    Then the call succeeds
    And the data contains "{{site:main}}"
    And the data does not contain "{{site:second}}"

  @rule:authz-agency-area-off
  Scenario Outline: An area the agency switched off blocks every tool of that area, reads and writes alike
    Given a workspace:
      """
      { "users": [{ "key": "ann" }],
        "sites": [{ "key": "shop", "members": { "ann": "owner" },
                    "records": { "leads": [{ "name": "Lee", "email": "lee@example.test", "message": "Hello" }],
                                 "bookings": [{ "name": "Bo", "email": "bo@example.test", "status": "confirmed" }],
                                 "contacts": [{ "name": "Cy", "email": "cy@example.test" }],
                                 "products": [{ "name": "Loaf", "price": { "amount": 3, "currency": "EUR" }, "revision": 1 }] } }] }
      """
    And "ann" has a connection "shopkeeper" to "shop" with scopes "<scopes>"
    When "shopkeeper" calls "<tool>" with:
      """
      <args>
      """
    Then the call succeeds
    When the workspace of "ann" changes settings:
      """
      { "areasOff": ["<area>"] }
      """
    And "shopkeeper" calls "<tool>" with:
      """
      <args>
      """
    Then the call fails with "area_disabled"

    Examples:
      | area     | scopes              | tool                    | args                                                                                              |
      | crm      | crm:read            | list_leads              | {}                                                                                                |
      | crm      | crm:read            | list_contacts           | {}                                                                                                |
      | bookings | crm:read            | list_bookings           | {}                                                                                                |
      | crm      | crm:write           | crm_update              | { "recordType": "lead", "recordId": "{{record:shop/leads/0}}", "changes": { "handled": true } }   |
      | bookings | crm:write           | crm_update              | { "recordType": "booking", "recordId": "{{record:shop/bookings/0}}", "changes": { "handled": true } } |
      | commerce | commerce:write      | list_products           | {}                                                                                                |
      | commerce | commerce:write      | list_services           | {}                                                                                                |
      | commerce | commerce:write      | get_commerce_overview   | {}                                                                                                |
      | commerce | commerce:write      | create_service          | { "name": "Bread class", "durationMinutes": 90 }                                                 |
      | commerce | commerce:write      | create_product          | { "name": "Rye", "price": { "amount": 4, "currency": "EUR" } }                                   |
      | commerce | commerce:write      | prepare_publish_product | { "productId": "{{record:shop/products/0}}" }                                                     |

