Feature: Editing the draft
  The seven content:write tools edit the draft only and bump the site revision; arguments are validated and
  never carry markup (§1.1, §4.1, §4.3).

  Background:
    Given a workspace:
      """
      { "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" }, "published": true }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "content:write"
    And the state of "main" is remembered

  @rule:content-write-draft-only @rule:content-write-bumps-revision @rule:create-blog-post-draft
  Scenario: Every content tool changes the draft and never the live site
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "Fresh sourdough" }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    And the data at "/siteRevision" equals the site revision of "main"
    And the published state of "main" is unchanged
    When "agent" calls "update_page_seo" with:
      """
      { "pageId": "{{page:main/home}}", "title": "Bakery", "description": "Bread every morning" }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    And the published state of "main" is unchanged
    When "agent" calls "add_section" with:
      """
      { "pageId": "{{page:main/home}}", "type": "{{type:text}}", "content": { "{{field:body}}": "Open on Sundays." } }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    And the data at "/externalKey" is an externalKey of the form "<page>/<section>"
    When "agent" calls "move_section" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "position": 1 }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    When "agent" calls "set_section_hidden" with:
      """
      { "sectionId": "{{section:main/home/intro}}", "hidden": true }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    When "agent" calls "create_page" with:
      """
      { "title": "Our story" }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    And the data at "/slug", a field of our output shape, equals "our-story"
    When "agent" calls "create_blog_post" with:
      """
      { "title": "New oven", "body": "We bought a new oven." }
      """
    Then the call succeeds
    And the site revision of "main" has moved on
    When "agent" calls "list_draft_changes"
    # Revisions are read relative to the ones before (any numbering), and how the changes are listed (one entry
    # per call or grouped) is not shown (§4.3): the list reports the current revision and is not empty.
    Then the site revision of "main" has not moved
    And the data at "/siteRevision" equals the site revision of "main"
    And the data at "/hasUnpublishedChanges", a field of our output shape, equals "true"
    And the data at "/changes", a field of our output shape, is a non-empty list
    When "agent" calls "list_pages"
    Then the data, in our output shape, contains "\"kind\":\"post\""
    And the published state of "main" is unchanged
    When a client GETs "{{public:main}}"
    Then the HTTP status is 200
    And the response body does not contain "Fresh sourdough"
    And the response body does not contain "Open on Sundays."

  @rule:tool-input-validated @rule:replace-section-no-raw-markup @rule:human-only-no-custom-head-code @rule:section-types @rule:update-page-seo-needs-a-field @rule:update-section-text-field-address @rule:activity-logs-validation-failures
  Scenario Outline: Invalid or markup-carrying arguments are refused, name what is wrong and change nothing
    When "agent" calls "<tool>" with:
      """
      <args>
      """
    Then the call fails with "validation_failed"
    And the error details name "<names>"
    And the draft of "main" is unchanged
    And the activity of "agent" has an entry for "<tool>" with outcome "invalid" and code "validation_failed"

    Examples:
      | tool                | names     | args                                                                                                  |
      | update_section_text | text      | { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "<script>alert(1)</script>" } |
      | update_section_text | html      | { "sectionId": "{{section:main/home/hero}}", "field": "{{field:heading}}", "text": "x", "html": "<b>" }          |
      | update_section_text | showForm  | { "sectionId": "{{section:main/home/hero}}", "field": "{{decision:update-section-text-field-address:showForm}}", "text": "x" }                        |
      | update_section_text | field     | { "sectionId": "{{section:main/home/hero}}", "field": "{{decision:update-section-text-field-address:items/first/title}}", "text": "x" }               |
      | add_section         | css       | { "pageId": "{{page:main/home}}", "type": "{{type:text}}", "content": { "{{field:body}}": "ok", "css": "body{}" } }       |
      | add_section         | body      | { "pageId": "{{page:main/home}}", "type": "{{type:text}}", "content": { "{{field:body}}": "<b>bold</b> news" } }          |
      | add_section         | type      | { "pageId": "{{page:main/home}}", "type": "{{decision:section-types:raw_html}}", "content": { "html": "<div>" } }                 |
      | update_page_seo     | title     | { "pageId": "{{page:main/home}}{{decision:update-page-seo-needs-a-field:}}" }                         |
      | move_section        | position  | { "sectionId": "{{section:main/home/hero}}", "position": 99 }                                         |
      | create_blog_post    | body      | { "title": "Launch", "body": "<iframe src=x></iframe>" }                                              |
      | create_page         | title     | { "title": "" }                                                                                       |

  @rule:service-same-functions-as-app
  Scenario: An edit made in the app is what MCP reads, and an MCP edit is what the app edits next
    When "olive" edits "main/home/hero" field "heading" in the app to "Edited in the app"
    And "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    Then the data at "/page/sections/0/content/{{field:heading}}" equals "Edited in the app"
    When "agent" calls "update_section_text" with:
      """
      { "sectionId": "{{section:main/home/hero}}", "field": "{{field:subheading}}", "text": "Edited over MCP" }
      """
    Then the call succeeds
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    # Both edits in the one section, whatever the answer calls its fields (found by the texts written).
    Then the entry of the data that names "Edited in the app" also holds "Edited over MCP"
