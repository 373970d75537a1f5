/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `SectionContent`'s JSON-Schema
 * via the `definition` "SectionType".
 */
export type SectionType =
  'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials';

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
export interface TypedContent {
  type: SectionType;
  content: {};
}
