/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the import_site tool.
 */
export interface ImportSiteTool {
  input: ImportSiteInput;
  output: ImportSiteOutput;
}
export interface ImportSiteInput {
  snapshot: PortableSiteV1;
  mergeIntoWebsiteId?: string;
  /**
   * @maxItems 500
   */
  forceKeys?: string[];
}
/**
 * Whole-site exchange format of export_site and import_site (rules portable-site-*).
 */
export interface PortableSiteV1 {
  format: 'PortableSiteV1';
  /**
   * Set by export_site; ignored on import.
   */
  exportedAt?: string;
  /**
   * Site identity. A merge never changes it.
   */
  site: {
    name: string;
    businessName?: string;
    locale?: string;
  };
  /**
   * A merge never changes it.
   */
  theme?: {
    colors?: {
      primary?: string;
      secondary?: string;
      accent?: string;
      background?: string;
      text?: string;
    };
    style?: string;
  };
  /**
   * A merge never changes them.
   *
   * @maxItems 10
   */
  fonts?: {
    role: 'heading' | 'body';
    family: string;
  }[];
  /**
   * @maxItems 500
   */
  pages: {
    /**
     * Stable page key: the <page> part of externalKey.
     */
    key: string;
    title: string;
    /**
     * URL path segment of the page; defaults to key. The slug home is the start page (/).
     */
    slug?: string;
    kind?: 'page' | 'post';
    seo?: {
      title?: string;
      description?: string;
    };
    hidden?: boolean;
    /**
     * @maxItems 200
     */
    sections: {
      /**
       * <page>/<section>: sections of an import merge by it; a field is addressed as <page>/<section>#<field> in forceKeys.
       */
      externalKey: string;
      type:
        'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials' | 'captured';
      /**
       * Validated server-side against the type's schema in section-content.schema.json.
       */
      content: {};
      layout?: Layout;
      /**
       * Section revision (present on export).
       */
      rev?: number;
      hidden?: boolean;
      /**
       * Typed parts of the section (rule portable-site-blocks-carried): each block's type is a section type and its content is validated against that type's schema (rule portable-site-block-typed).
       *
       * @maxItems 100
       */
      blocks?: {
        key: string;
        type:
          'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials' | 'captured';
        /**
         * Validated server-side against the block type's schema in section-content.schema.json.
         */
        content: {};
      }[];
    }[];
  }[];
  /**
   * Referenced by URL (rule portable-site-assets-by-url): on import each is fetched and re-validated server-side and the site keeps the fetched copy; unsafe or unreachable ones are skipped and reported (rule import-site-assets-revalidated). An export lists each with the URL the site serves its copy from (rule portable-site-assets-carried). http and https are both taken: §2.3 names no scheme, the fetch is what is hardened (rule migrate-ssrf-hardened), and a server reached over http exports http URLs.
   *
   * @maxItems 1000
   */
  assets?: {
    key: string;
    url: string;
    alt?: string;
    kind?: 'image' | 'file';
  }[];
  /**
   * @maxItems 200
   */
  services?: {
    key: string;
    name: string;
    description?: string;
    price?: {
      amount: number;
      currency: string;
    };
    durationMinutes?: number;
  }[];
  /**
   * @maxItems 50
   */
  collections?: {
    key: string;
    name: string;
    /**
     * @maxItems 1000
     */
    items: {}[];
  }[];
  /**
   * @maxItems 500
   */
  redirects?: {
    from: string;
    /**
     * https URL, site path, mailto: or tel: link.
     */
    to: string;
    permanent?: boolean;
  }[];
  /**
   * The contact block: present on export, optional on import.
   */
  contact?: {
    businessName?: string;
    email?: string;
    phone?: string;
    address?: {
      street?: string;
      city?: string;
      postalCode?: string;
      country?: string;
    };
  };
  /**
   * Analytics and tag-manager identifiers: present on export, optional on import.
   */
  analytics?: {
    googleAnalyticsId?: string;
    googleTagManagerId?: string;
    plausibleDomain?: string;
    metaPixelId?: string;
  };
}
/**
 * Bounded layout tokens of a section (rules layout-tokens-bounded, layout-token-values).
 */
export interface Layout {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
}
export interface ImportSiteOutput {
  /**
   * The new site, or the merge target.
   */
  websiteId: string;
  editorUrl: string;
  /**
   * True when mergeIntoWebsiteId was given.
   */
  merged: boolean;
  /**
   * Restore point taken before a merge; null for a new site.
   */
  restorePointId: string | null;
  /**
   * Fields changed on both sides since the last sync, where the app's value was kept. Tell the user; push again with forceKeys to override.
   */
  keptFields: {
    /**
     * externalKey of the section, <page>/<section>.
     */
    key: string;
    field: string;
    appValue: unknown;
    pushedValue: unknown;
  }[];
  /**
   * externalKeys of sections added.
   */
  inserted: string[];
  /**
   * externalKeys of matched sections that took pushed values.
   */
  updated: string[];
  /**
   * Assets not imported (unsafe or unreachable address, wrong type, over a cap), with the reason.
   */
  assetsSkipped: {
    url: string;
    reason: string;
  }[];
}
