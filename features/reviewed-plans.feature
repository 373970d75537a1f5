Feature: The reviewed owner-approval rail
  Risky actions need a prepared plan, a signed-in owner's approval of that exact plan, and a confirm by the same
  caller within 5 minutes, once, with the subject unchanged (§1.6, §2.6, §3, §4.3, §7.4).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }, { "key": "eddie" }],
        "sites": [{ "key": "main", "members": { "olive": "owner", "eddie": "editor" }, "published": true,
                    "records": { "products": [{ "name": "Sourdough", "price": { "amount": 5, "currency": "EUR" }, "revision": 1, "status": "draft" }],
                                 "documents": [{ "kind": "invoice", "number": "INV-7", "title": "Wedding cake", "status": "draft", "total": { "amount": 300, "currency": "EUR" } }] } },
                  { "key": "other", "members": { "olive": "owner" } }] }
      """
    And a workspace with an owner "mallory" and a site "foreign"
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write, publish"
    And "olive" has a connection "twin" to "main" with scopes "site:read, content:write, publish"

  @rule:plan-prepare-requires-scope
  Scenario: A plan is prepared only with the scope its tool needs
    Given "olive" has a connection "reader" to "main" with scopes "site:read, content:write"
    When "reader" calls "prepare_publish"
    Then the call fails with "scope_denied"
    When "reader" calls "prepare_unpublish"
    Then the call fails with "scope_denied"

  @rule:publish-site-fails-closed @rule:risky-actions-never-direct
  Scenario: publish_site never publishes
    Given the published state of "main" is remembered
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Unreviewed" }
      """
    And "agent" calls "publish_site"
    Then the call fails with "review_required"
    And the error details at "/use" equals "prepare_publish"
    And the published state of "main" is unchanged

  @rule:plan-created-awaiting-approval @rule:plan-confirm-requires-approval @rule:plan-approval-signed-in-owner @rule:confirm-redeems-plan @rule:publish-makes-draft-live @rule:plan-single-use @rule:plan-anchored-to-website @rule:plan-no-mcp-approval
  Scenario: Prepare, approve in the app, confirm once
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Reviewed heading" }
      """
    And "agent" calls "prepare_publish"
    Then the call succeeds
    And the data at "/websiteId" equals "{{site:main}}"
    And the data at "/pinned/siteRevision" equals the site revision of "main"
    When "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_not_approved"
    When "olive" approves the plan
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the site "main" is published at the current draft revision
    When "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_used"

  @rule:state-names
  Scenario: Plans and sites go through the states of spec/plan-states.json, under our names (our decision)
    # §3: "state names: not shown"; a target that adopts ours is held to them in its answers.
    Given the target adopts the decision "state-names"
    When "agent" calls "get_site_overview"
    Then the data at "/status" equals "published"
    When "agent" calls "prepare_unpublish"
    Then the plan is in state "awaiting_approval"
    When "olive" approves the plan
    Then the plan is in state "approved"
    When "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the data at "/result/status" equals "unpublished"
    And the plan is in state "redeemed"
    When "agent" calls "list_sites"
    Then the data at "/sites/0/status" equals "unpublished"
    When "agent" calls "prepare_publish"
    And "olive" declines the plan
    Then the plan is in state "declined"

  @rule:plan-confirm-requires-approval @rule:plan-refusal-needs-fresh-review
  Scenario: A declined plan is never carried out, and cannot be approved afterwards
    Given the published state of "main" is remembered
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Declined copy" }
      """
    And "agent" calls "prepare_publish"
    And "olive" declines the plan
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_declined"
    And the published state of "main" is unchanged
    When "olive" tries to approve the plan
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_declined"
    And the published state of "main" is unchanged

  @rule:plan-caller-bound @rule:plan-refusal-needs-fresh-review
  Scenario: Another connection of the same owner cannot redeem the plan
    When "agent" calls "prepare_publish"
    And "olive" approves the plan
    And "twin" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_wrong_caller"
    And the site "main" is published at the current draft revision

  @rule:plan-pins-site-revision
  Scenario: A draft edit after review voids a publish plan
    Given the published state of "main" is remembered
    When "agent" calls "prepare_publish"
    And "olive" approves the plan
    And "olive" edits "main/home/hero" field "heading" in the app to "Changed after review"
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_subject_changed"
    And the published state of "main" is unchanged

  @rule:plan-expiry-five-minutes @rule:plan-expired-garbage-collected @rule:plan-approve-before-expiry
  Scenario: After 5 minutes a plan can be neither approved nor redeemed, and is collected
    When "agent" calls "prepare_publish"
    And the clock of the workspace of "olive" advances 301 seconds
    And "olive" tries to approve the plan
    Then the approval was refused
    When "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_expired"
    And the plan is garbage-collected

  @rule:plan-approver-owner-and-creator
  Scenario: An editor cannot approve a plan
    When "agent" calls "prepare_publish"
    And "eddie" tries to approve the plan
    Then the approval was refused
    When "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_not_approved"

  @rule:plan-repoint-refused @rule:plan-redeem-reauthorizes-anchor
  Scenario: A plan cannot be pointed at another website at confirm
    Given "olive" has a workspace connection "ws" from "main" with scopes "site:read, publish"
    When "ws" calls "prepare_publish" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    And "olive" approves the plan
    And "ws" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}", "websiteId": "{{site:foreign}}" }
      """
    Then the call fails with "plan_anchor_mismatch"
    When "ws" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}", "websiteId": "{{site:other}}" }
      """
    Then the call fails with "plan_anchor_mismatch"
    When "olive" loses access to "main"
    And "ws" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "access_denied"

  @rule:plan-redeem-reauthorizes-anchor
  Scenario: A creator demoted to viewer after approval cannot carry out the publish
    Given the published state of "main" is remembered
    When "agent" calls "prepare_publish"
    Then the call succeeds
    When "olive" approves the plan
    And the role of "olive" on "main" becomes "viewer"
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "access_denied"
    And the published state of "main" is unchanged

  @rule:unpublish-takes-site-offline @rule:plan-pins-site-revision
  Scenario: An approved unpublish takes the site off its public address
    Then the public address of "main" answers 200
    When "agent" calls "prepare_unpublish"
    And "olive" approves the plan
    # Nothing happens before the confirm.
    Then the site "main" is published at the current draft revision
    # A draft edit after the review does not void an unpublish: only publish is pinned to the draft.
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Edited after the unpublish review" }
      """
    And "agent" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the site "main" is not published
    And the public address of "main" answers 404

  @rule:list-access-members-and-invites @rule:grant-access-levels @rule:grant-access-owner-only @rule:grant-access-nothing-before-confirm @rule:grant-access-no-link @rule:grant-access-website-scoped
  Scenario: Access invitations: editor or viewer only, owner-only, nothing before confirm, no link
    Given "olive" has a connection "access" to "main" with scopes "access:write"
    When "access" calls "prepare_grant_access" with:
      """
      { "email": "new.baker@example.test", "level": "owner" }
      """
    Then the call fails with "validation_failed"
    When "access" calls "prepare_grant_access" with:
      """
      { "email": "new.baker@example.test", "level": "editor" }
      """
    Then the call succeeds
    When "access" calls "list_access"
    # Nothing before confirm: no invitation names the address yet.
    Then the data does not contain "new.baker@example.test"
    And the data at "/members" has 2 items
    When "olive" approves the plan
    And "access" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the data does not contain "http"
    And the data does not contain "token"
    When "access" calls "list_access"
    # A pending invitation for the address, at the level asked for (§4.3 names the levels editor and viewer).
    Then the entry of the data that names "new.baker@example.test" also holds "editor"
    And the data does not contain "http"
    # The invite is for this website only (§4.3): another site of the same workspace lists no such invitation.
    Given "olive" has a connection "elsewhere" to "other" with scopes "access:write"
    When "elsewhere" calls "list_access"
    Then the call succeeds
    And the data does not contain "new.baker@example.test"
    # Ownership is checked again at confirm: an owner who became an editor after approval cannot carry it out.
    When "access" calls "prepare_grant_access" with:
      """
      { "email": "second.baker@example.test", "level": "viewer" }
      """
    And "olive" approves the plan
    And the role of "olive" on "main" becomes "editor"
    And "access" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "owner_only"
    # list_access is a read: its scope and the live role suffice; owner-only is prepare and confirm (§4.3, §5.6).
    When "access" calls "list_access"
    Then the call succeeds
    When "access" calls "prepare_grant_access" with:
      """
      { "email": "another@example.test", "level": "viewer" }
      """
    Then the call fails with "owner_only"

  @rule:plan-pins-document-fingerprint @rule:send-document-reviewed
  Scenario: Any edit to a document voids its send plan
    Given "olive" has a connection "comms" to "main" with scopes "communications:write"
    When "comms" calls "list_sendable_documents"
    Then the data at "/documents/0/documentId" equals "{{record:main/documents/0}}"
    And the data does not contain "@"
    When "comms" calls "prepare_send_document" with:
      """
      { "documentId": "{{record:main/documents/0}}" }
      """
    And "olive" approves the plan
    And "olive" renames the document "main/documents/0" in the app to "Wedding cake, revised"
    And "comms" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_subject_changed"
    # Nothing was sent: the document is still sendable.
    When "comms" calls "list_sendable_documents"
    Then the data contains "{{record:main/documents/0}}"
    When "comms" calls "prepare_send_document" with:
      """
      { "documentId": "{{record:main/documents/0}}" }
      """
    And "olive" approves the plan
    When "comms" calls "list_sendable_documents"
    Then the data contains "{{record:main/documents/0}}"
    When "comms" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    When "comms" calls "list_sendable_documents"
    Then the data does not contain "{{record:main/documents/0}}"

  @rule:product-publish-reviewed @rule:plan-pins-product-revision
  Scenario: A product becomes public only through an approved plan
    Given "olive" has a connection "shop" to "main" with scopes "commerce:write"
    When "shop" calls "prepare_publish_product" with:
      """
      { "productId": "{{record:main/products/0}}" }
      """
    And "shop" calls "list_products"
    Then the data at "/products/0/status" equals "draft"
    When "olive" approves the plan
    And "olive" renames the product "main/products/0" in the app to "Sourdough, larger loaf"
    And "shop" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_subject_changed"
    When "shop" calls "list_products"
    Then the data at "/products/0/status" equals "draft"
    When "shop" calls "prepare_publish_product" with:
      """
      { "productId": "{{record:main/products/0}}" }
      """
    And "olive" approves the plan
    And "shop" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    When "shop" calls "list_products"
    Then the data at "/products/0/status" equals "public"

  @rule:search-visibility-reviewed
  Scenario: Search visibility changes only after approval
    Given "olive" has a connection "seo" to "main" with scopes "site:read, settings:write"
    When "seo" calls "prepare_search_visibility" with:
      """
      { "visible": false }
      """
    Then the site "main" is visible to search engines
    When "olive" approves the plan
    Then the site "main" is visible to search engines
    When "seo" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the site "main" is hidden from search engines

  @rule:create-company-reviewed @rule:plan-company-anchor-context-only @rule:plan-company-effect-never-writes-anchor @rule:new-company-free-plan @rule:new-company-empty @rule:create-company-once
  Scenario: A company is created only after approval, on plan free, and the anchor site is untouched
    Given "olive" has a connection "biz" to "main" with scopes "site:read, workspace:write"
    When "biz" calls "prepare_create_company" with:
      """
      { "companyName": "Olive Catering Ltd" }
      """
    Then the call succeeds
    And the data at "/websiteId" equals "{{site:main}}"
    When "olive" approves the plan
    Then "olive" owns no company named "Olive Catering Ltd"
    When "biz" calls "get_site_overview"
    And the answer is remembered as "before"
    And "biz" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call succeeds
    And the data matches:
      """
      { "result": { "plan": "free", "credits": 0, "websites": 0, "trial": false, "monthlyCreditReset": false, "paymentProviderObject": false } }
      """
    And "olive" owns exactly one company named "Olive Catering Ltd": plan free, no credits, no website, no trial, no monthly credit reset, no payment-provider object
    When "biz" calls "get_site_overview"
    Then the answer equals the remembered "before" except "updatedAt"
    When "biz" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "plan_used"
    And "olive" owns exactly one company named "Olive Catering Ltd": plan free, no credits, no website, no trial, no monthly credit reset, no payment-provider object

  @rule:authz-agency-area-off @rule:plan-redeem-reauthorizes-anchor
  Scenario: An area switched off after approval blocks the confirm of its plan
    Given "olive" has a connection "shop" to "main" with scopes "commerce:write"
    When "shop" calls "prepare_publish_product" with:
      """
      { "productId": "{{record:main/products/0}}" }
      """
    And "olive" approves the plan
    And the workspace of "olive" changes settings:
      """
      { "areasOff": ["commerce"] }
      """
    And "shop" calls "confirm_pending_action" with:
      """
      { "planId": "{{plan}}" }
      """
    Then the call fails with "area_disabled"

