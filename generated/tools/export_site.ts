/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the export_site tool.
 */
export interface ExportSiteTool {
  input: ExportSiteInput;
  output: ExportSiteOutput;
}
export interface ExportSiteInput {
  websiteId?: string;
}
export interface ExportSiteOutput {
  snapshot: PortableSiteV1;
}
/**
 * Whole-site exchange format of export_site and import_site (rules portable-site-*).
 */
export interface PortableSiteV1 {
  format: 'PortableSiteV1';
  exportedAt?: string;
  site: {
    name: string;
    businessName?: string;
    locale?: string;
  };
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
   * @maxItems 10
   */
  fonts?:
    | []
    | [
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ]
    | [
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        },
        {
          role: 'heading' | 'body';
          family: string;
        }
      ];
  /**
   * @maxItems 500
   */
  pages: {
    key: string;
    title: string;
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
      externalKey: string;
      type: 'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials';
      content: {};
      layout?: Layout;
      rev?: number;
      hidden?: boolean;
      /**
       * @maxItems 100
       */
      blocks?: {
        key: string;
        type: string;
        content: {};
      }[];
    }[];
  }[];
  /**
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
