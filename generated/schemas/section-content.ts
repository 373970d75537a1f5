/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "SectionType".
 */
export type SectionType =
  'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials' | 'captured';

/**
 * Content schema of each section type: plain-text fields only, so raw HTML or CSS cannot enter (rules replace-section-schema-validated, replace-section-no-raw-markup).
 */
export interface SectionContent {
  [k: string]: unknown | undefined;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "hero".
 */
export interface Hero {
  heading: string;
  subheading?: string;
  buttonLabel?: string;
  /**
   * https URL, site path, mailto: or tel: link.
   */
  buttonHref?: string;
  imageAssetId?: string;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "text".
 */
export interface Text {
  heading?: string;
  body: string;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "image".
 */
export interface Image {
  imageUrl?: string;
  imageAssetId?: string;
  alt: string;
  caption?: string;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "services".
 */
export interface Services {
  heading?: string;
  /**
   * @maxItems 50
   */
  items?: {
    title: string;
    description?: string;
    price?: string;
  }[];
  minItems?: 0;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "gallery".
 */
export interface Gallery {
  heading?: string;
  /**
   * @maxItems 100
   */
  images?: {
    imageUrl?: string;
    imageAssetId?: string;
    alt: string;
  }[];
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "faq".
 */
export interface Faq {
  heading?: string;
  /**
   * @maxItems 50
   */
  items?: {
    question: string;
    answer: string;
  }[];
  minItems?: 0;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "cta".
 */
export interface Cta {
  heading: string;
  body?: string;
  buttonLabel: string;
  /**
   * https URL, site path, mailto: or tel: link.
   */
  buttonHref: string;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "contact".
 */
export interface Contact {
  heading?: string;
  showForm?: boolean;
  showMap?: boolean;
}
/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "testimonials".
 */
export interface Testimonials {
  heading?: string;
  /**
   * @maxItems 50
   */
  items?: {
    quote: string;
    author: string;
  }[];
  minItems?: 0;
}
/**
 * A region of a page taken by visual capture (migrate_site_from_url, rule migrate-capture-then-typed): positioned boxes whose text, links and images stay editable (update_section_text with field boxes/<n>/text or boxes/<n>/href; replace_section_content) while their positions, the region's internal layout, are fixed: x, y, w and h are numbers, which update_section_text refuses.
 *
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "captured".
 */
export interface Captured {
  /**
   * Width in CSS pixels of the page the region was captured at.
   */
  width: number;
  height: number;
  /**
   * @maxItems 300
   */
  boxes: {
    /**
     * text: a run of text; link: a link with its text (href editable); image: an image of the site's assets.
     */
    kind: 'text' | 'link' | 'image';
    x: number;
    y: number;
    w: number;
    h: number;
    text?: string;
    /**
     * https URL, site path, mailto: or tel: link.
     */
    href?: string;
    imageAssetId?: string;
    alt?: string;
    fontSize?: number;
    lineHeight?: number;
    /**
     * The captured CSS font-family list, quotes removed.
     */
    fontFamily?: string;
    bold?: boolean;
    color?: string;
  }[];
}
export interface TypedContent {
  type: SectionType;
  content: {};
}
