Feature: A whole site as PortableSiteV1, and the empty site create_site makes
  What an export carries, what a merge may never change, the whole-section form of forceKeys, and a new site that
  carries the business name only (§2.3, §4.3).

  Background:
    Given a workspace:
      """
      { "plan": "business", "users": [{ "key": "olive" }],
        "sites": [{ "key": "main", "members": { "olive": "owner" },
                    "records": { "services": [{ "name": "Wheel throwing {{random:seeded}}", "status": "draft" }] } }] }
      """
    And "olive" has a connection "agent" to "main" with scopes "site:read, content:write"
    And "olive" has a workspace connection "ws" from "main" with scopes "site:read, content:write, workspace:write, commerce:write"

  @rule:import-merge-never-touches-config
  Scenario: A merge leaves the site's identity, theme and fonts as they were
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1",
          "site": { "name": "Renamed {{random:name}}", "businessName": "Renamed {{random:name}} Ltd" },
          "theme": { "colors": { "primary": "#0b0c0d", "secondary": "#0b0c0e", "accent": "#0b0c0f" }, "style": "style{{random:style}}" },
          "fonts": [{ "role": "heading", "family": "Font{{random:font}}" }, { "role": "body", "family": "Font{{random:font}}" }],
          "pages": [] } }
      """
    Then the call succeeds
    When "agent" calls "export_site"
    Then the call succeeds
    And the data does not contain "Renamed {{random:name}}"
    And the data does not contain "Font{{random:font}}"
    And the data does not contain "#0b0c0d"
    And the data does not contain "style{{random:style}}"
    # The brand colours of a fixtures world are part of the protocol (conformance/docs/fixtures-protocol.md).
    When "agent" calls "get_brand"
    Then the call succeeds
    And the data contains "#1f4e79"
    And the data does not contain "#0b0c0d"
    And the data does not contain "Renamed {{random:name}}"
    When "agent" calls "get_site_overview"
    Then the call succeeds
    And the data does not contain "Renamed {{random:name}}"
    # The same snapshot imported as a new site brings its fonts and theme along, so the reads above would see them.
    When "ws" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1",
          "site": { "name": "Copy {{random:name}}" },
          "theme": { "colors": { "primary": "#0b0c0d" } },
          "fonts": [{ "role": "heading", "family": "Font{{random:font}}" }],
          "pages": [] } }
      """
    Then the call succeeds
    When the website the call created is remembered as "copy"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:copy}}" }
      """
    Then the data contains "Font{{random:font}}"
    When "ws" calls "get_brand" with:
      """
      { "websiteId": "{{remembered:copy}}" }
      """
    Then the data contains "#0b0c0d"

  @rule:import-merge-force-keys
  Scenario: forceKeys "<page>/<section>" makes the whole pushed section win over the app's edits
    When "olive" edits "main/home/hero" field "heading" in the app to "Owner's heading {{random:h}}"
    And "olive" edits "main/home/hero" field "subheading" in the app to "Owner's subheading {{random:h}}"
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "forceKeys": ["home/hero"], "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}",
            "content": { "{{field:heading}}": "Forced heading {{random:f}}", "{{field:subheading}}": "Forced subheading {{random:f}}" } }] }] } }
      """
    Then the call succeeds
    # Nothing kept: the app's values are reported nowhere.
    And the data does not contain "Owner's heading {{random:h}}"
    And the data does not contain "Owner's subheading {{random:h}}"
    When "agent" calls "export_site"
    Then the data contains "Forced heading {{random:f}}"
    And the data contains "Forced subheading {{random:f}}"
    And the data does not contain "Owner's heading {{random:h}}"
    And the data does not contain "Owner's subheading {{random:h}}"
    # Without the key the app's edits win: forceKeys is what made the difference.
    When "olive" edits "main/home/hero" field "heading" in the app to "Owner's heading again {{random:h}}"
    And "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [{ "externalKey": "home/hero", "type": "{{type:hero}}",
            "content": { "{{field:heading}}": "Unforced heading {{random:f}}" } }] }] } }
      """
    Then the call succeeds
    When "agent" calls "export_site"
    Then the data contains "Owner's heading again {{random:h}}"
    And the data does not contain "Unforced heading {{random:f}}"

  @rule:portable-site-contents @rule:export-site-whole-draft
  Scenario: An export carries the site's services, fonts, collections and redirects
    When "agent" calls "export_site"
    Then the call succeeds
    And the data contains "Wheel throwing {{random:seeded}}"
    When "ws" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pottery {{random:site}}" },
          "fonts": [{ "role": "heading", "family": "Glaze{{random:font}}" }, { "role": "body", "family": "Clay{{random:font}}" }],
          "pages": [],
          "services": [{ "key": "class", "name": "Pottery class {{random:service}}" }],
          "collections": [{ "key": "glazes", "name": "Glazes", "items": [{ "name": "Celadon {{random:item}}" }] }],
          "redirects": [{ "from": "/old-{{random:path}}", "to": "/" }] } }
      """
    Then the call succeeds
    When the website the call created is remembered as "pottery"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:pottery}}" }
      """
    Then the call succeeds
    And the data contains "Glaze{{random:font}}"
    And the data contains "Clay{{random:font}}"
    And the data contains "Pottery class {{random:service}}"
    And the data contains "Celadon {{random:item}}"
    And the data contains "/old-{{random:path}}"

  @rule:create-site-empty-draft
  Scenario: create_site makes an unpublished draft that carries the business name and nothing invented
    When "ws" calls "list_services" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the call succeeds
    And the data contains "Wheel throwing {{random:seeded}}"
    When "ws" calls "list_products" with:
      """
      { "websiteId": "{{site:main}}" }
      """
    Then the call succeeds
    And the answer is remembered as "no products"
    When "ws" calls "create_site" with:
      """
      { "businessName": "Kiln {{random:business}} Studio" }
      """
    Then the call succeeds
    When the website the call created is remembered as "new"
    Then the site remembered as "new" is not published
    When "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:new}}" }
      """
    Then the call succeeds
    And the data contains "Kiln {{random:business}} Studio"
    And the data does not contain "Wheel throwing {{random:seeded}}"
    And the PortableSiteV1 snapshot in the data lists no services
    And the sections of the PortableSiteV1 snapshot in the data carry no text but "Kiln {{random:business}} Studio"
    # No invented product or price: the new site lists its products exactly as a site without any does.
    When "ws" calls "list_products" with:
      """
      { "websiteId": "{{remembered:new}}" }
      """
    Then the answer looks exactly like the remembered "no products"

  @rule:import-merge-restore-point
  Scenario: A merge saves the draft it is about to change as a restore point first
    # No section vocabulary needed: the merge adds an empty page, which changes the draft.
    Given the state of "main" is remembered
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "news{{random:page}}", "title": "News {{random:page}}", "sections": [] }] } }
      """
    Then the call succeeds
    And "main" has a restore point of the remembered draft

  @rule:human-only-no-deletion @rule:import-merge-by-external-key
  Scenario: A merge of a snapshot that lacks some pages and sections deletes none of them
    # §1.7: deleting a page is human-only, so no tool does it, a merge included (§4.3: sections match by
    # externalKey, new ones are inserted; nothing says an unmatched one goes). The snapshot's home page has no
    # sections, so no section vocabulary is needed.
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" },
          "pages": [{ "key": "home", "title": "Home", "sections": [] }] } }
      """
    Then the call succeeds
    When "agent" calls "list_pages"
    Then the call succeeds
    And the data contains "{{page:main/home}}"
    And the data contains "{{page:main/contact}}"
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/home}}" }
      """
    Then the call succeeds
    And the data contains "{{section:main/home/hero}}"
    And the data contains "{{section:main/home/intro}}"
    When "agent" calls "get_page" with:
      """
      { "pageId": "{{page:main/contact}}" }
      """
    Then the call succeeds
    And the data contains "{{section:main/contact/form}}"

  @rule:portable-site-round-trip @rule:portable-site-contents @rule:portable-site-blocks-carried
  Scenario: A site imported from a snapshot, and another from its export, export everything the snapshot held
    When "ws" imports this snapshot as a new site:
      """
      { "format": "PortableSiteV1", "site": { "name": "Round trip {{random:site}}" },
        "fonts": [{ "role": "heading", "family": "Kiln{{random:font}}" }, { "role": "body", "family": "Clay{{random:font}}" }],
        "pages": [
          { "key": "home", "title": "Home", "slug": "home", "kind": "page", "seo": { "title": "Home", "description": "Pots {{random:seo}}" }, "hidden": false,
            "sections": [
              { "externalKey": "home/hero", "type": "{{type:hero}}", "content": { "{{field:heading}}": "Thrown by hand {{random:heading}}" }, "layout": {}, "hidden": false,
                "blocks": [{ "key": "hours", "type": "{{type:text}}", "content": { "{{field:body}}": "Open Tuesdays {{random:block}}" } }] },
              { "externalKey": "home/story", "type": "{{type:text}}", "content": { "{{field:body}}": "Since 1990 {{random:body}}" }, "layout": {}, "hidden": true, "blocks": [] }] },
          { "key": "journal", "title": "Journal", "slug": "journal", "kind": "post", "seo": { "title": "Journal", "description": "" }, "hidden": true, "sections": [] }],
        "services": [{ "key": "class", "name": "Wheel class {{random:service}}", "description": "Two hours at the wheel", "price": { "amount": 49.5, "currency": "EUR" }, "durationMinutes": 120 }],
        "collections": [{ "key": "glazes", "name": "Glazes", "items": [{ "name": "Celadon {{random:item}}" }] }],
        "redirects": [{ "from": "/old-{{random:path}}", "to": "/", "permanent": true }],
        "contact": { "businessName": "Round trip {{random:site}}", "email": "kiln@example.test", "phone": "+49 30 7654321" },
        "analytics": { "googleAnalyticsId": "G-ROUND{{random:ga}}", "googleTagManagerId": "GTM-ROUND" } }
      """
    Then the export of that site by "ws" carries everything the imported snapshot held
    When "ws" imports that export as a new site
    Then the export of that site by "ws" carries everything the imported snapshot held

  # §2.3 assets "referenced by URL on import", §4.3 "asset URLs are fetched and re-validated server-side" as a bundle
  # upload is: the site keeps what it fetched. The kit's image is its own (a scenario's token in the PNG), served over
  # https with a test certificate the target trusts for that origin only (fixtures part fetch-allowlist-tls).
  @rule:portable-site-assets-carried @rule:import-site-assets-revalidated @rule:portable-site-assets-by-url
  Scenario: An imported asset is fetched, kept by the site and exported with its key and alt, served from the site's own address
    Given the kit website serves an image of this scenario over https
    When "ws" imports this snapshot as a new site:
      """
      { "format": "PortableSiteV1", "site": { "name": "Loaves {{random:site}}" }, "pages": [],
        "fonts": [{ "role": "heading", "family": "Crust{{random:font}}" }, { "role": "body", "family": "Crumb{{random:font}}" }],
        "contact": { "businessName": "Loaves {{random:site}}" }, "analytics": { "googleAnalyticsId": "G-LOAF{{random:ga}}" },
        "assets": [{ "key": "loaf", "url": "{{remembered:kit-image-url}}", "alt": "A loaf {{random:alt}}", "kind": "image" }] }
      """
    Then the kit website was asked for that image
    When the kit website stops serving that image
    Then the export of that site by "ws" carries everything the imported snapshot held
    And that export lists the asset "loaf" at an address of the site that serves the image the kit website served
    # PortableSiteV1 is also what import_site consumes: the export's asset URL is one an import fetches (§2.3).
    When "ws" imports that export as a new site
    Then the export of that site by "ws" carries everything the imported snapshot held
    And that export lists the asset "loaf" at an address of the site that serves the image the kit website served

  # An imported SVG is served from the target's own origin: ours (decision served-files-no-forms-no-framing) is that
  # it then posts no form (an SVG can draw a sign-in form) and is framed by no site, or is only a download.
  @rule:served-files-no-forms-no-framing
  Scenario: An imported SVG is served from the site's address unable to post a form or be framed
    Given the target adopts the decision "served-files-no-forms-no-framing"
    And the kit website serves an SVG image of this scenario over https
    When "ws" imports this snapshot as a new site:
      """
      { "format": "PortableSiteV1", "site": { "name": "Vectors {{random:site}}" }, "pages": [],
        "fonts": [{ "role": "heading", "family": "Vector{{random:font}}" }, { "role": "body", "family": "Path{{random:font}}" }],
        "contact": { "businessName": "Vectors {{random:site}}" }, "analytics": { "googleAnalyticsId": "G-VECT{{random:ga}}" },
        "assets": [{ "key": "badge", "url": "{{remembered:kit-image-url}}", "alt": "A badge {{random:alt}}", "kind": "image" }] }
      """
    Then the kit website was asked for that image
    And the export of that site by "ws" carries everything the imported snapshot held
    And the address that export names for the asset "badge" serves it with no form target and no framing

  # A merge and the snapshot's listed assets: §4.3 is silent, so ours (decision import-merge-adds-assets) is checked
  # only for a target that adopts it. A merge adds a listed asset the site lacks, keeps it when the same snapshot is
  # pushed again (its image now gone from the kit website, so that push keeps nothing new) and never lists it twice.
  @rule:import-merge-adds-assets
  Scenario: A merge adds the snapshot's listed assets the site does not have, and removes none
    Given the target adopts the decision "import-merge-adds-assets"
    And the kit website serves an image of this scenario over https
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" }, "pages": [],
          "assets": [{ "key": "loaf{{random:key}}", "url": "{{remembered:kit-image-url}}", "alt": "A loaf {{random:alt}}", "kind": "image" }] } }
      """
    Then the call succeeds
    And the kit website was asked for that image
    When the kit website stops serving that image
    And "agent" calls "export_site"
    Then the call succeeds
    And the export in the data lists the asset "loaf{{random:key}}" once, with alt "A loaf {{random:alt}}", at an address of the site that serves the image the kit website served
    When "agent" calls "import_site" with:
      """
      { "mergeIntoWebsiteId": "{{site:main}}", "snapshot": { "format": "PortableSiteV1", "site": { "name": "Pushed" }, "pages": [],
          "assets": [{ "key": "loaf{{random:key}}", "url": "{{remembered:kit-image-url}}", "alt": "A loaf {{random:alt}}", "kind": "image" }] } }
      """
    Then the call succeeds
    When "agent" calls "export_site"
    Then the call succeeds
    And the export in the data lists the asset "loaf{{random:key}}" once, with alt "A loaf {{random:alt}}", at an address of the site that serves the image the kit website served

  # The same for an image named inside section content: fetched and kept like a listed asset, never hotlinked. How
  # content names an image (the type "image" and its field imageUrl) is our decision (section-types).
  @rule:import-site-assets-revalidated
  Scenario: An image named inside imported section content is fetched and kept by the site, never hotlinked
    Given the kit website serves an image of this scenario over https
    When "ws" calls "import_site" with:
      """
      { "snapshot": { "format": "PortableSiteV1", "site": { "name": "Photo {{random:site}}" },
          "pages": [{ "key": "home", "title": "Home", "sections": [
            { "externalKey": "home/photo", "type": "{{decision:section-types:image}}", "content": { "imageUrl": "{{remembered:kit-image-url}}", "alt": "Our shop {{random:alt}}" } }] }] } }
      """
    Then the call succeeds
    And the kit website was asked for that image
    When the kit website stops serving that image
    And the website the call created is remembered as "photo"
    And "ws" calls "export_site" with:
      """
      { "websiteId": "{{remembered:photo}}" }
      """
    Then the call succeeds
    And the data contains "Our shop {{random:alt}}"
    And the export in the data keeps the image the kit website served, at an address of the site
