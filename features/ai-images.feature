Feature: Credits of generated images
  generate_image checks the balance before any provider call and charges only after delivery; every call is
  logged with the credits it spent (§4.3, §2.7, §7.4).

  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read, ai:generate"

  @rule:generate-image-charged-after-delivery @rule:generate-image-logged-credits
  Scenario: A generation the image provider fails to deliver spends no credits; a delivered one is charged
    Given the credits of the workspace of "olive" are remembered
    When the image provider fails the next image of the workspace of "olive"
    And "agent" calls "generate_image" with:
      """
      { "prompt": "A loaf the provider never delivers" }
      """
    Then the call fails
    And the workspace of "olive" has the remembered credits
    And the last activity entry of "agent" for "generate_image" records 0 credits spent
    # The same call delivered is charged, so the read-back above sees a charge when there is one.
    When "agent" calls "generate_image" with:
      """
      { "prompt": "A loaf on a wooden table" }
      """
    Then the call succeeds
    And the workspace of "olive" has fewer credits than remembered

  @rule:generate-image-credits-before-provider
  Scenario: With too few credits the image provider is never asked
    # The order is made observable: the provider is set to fail its next image. Had the refused call asked it, that
    # failure would be spent there and the paid call after it would be delivered.
    Given the workspace of "olive" changes settings:
      """
      { "credits": 0 }
      """
    When the image provider fails the next image of the workspace of "olive"
    And "agent" calls "generate_image" with:
      """
      { "prompt": "A loaf nobody can pay for" }
      """
    Then the call fails
    When the workspace of "olive" changes settings:
      """
      { "credits": 10 }
      """
    And "agent" calls "generate_image" with:
      """
      { "prompt": "A loaf the provider was told to fail" }
      """
    Then the call fails
    When "agent" calls "generate_image" with:
      """
      { "prompt": "A loaf on a wooden table" }
      """
    Then the call succeeds
