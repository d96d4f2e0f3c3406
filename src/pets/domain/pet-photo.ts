/**
 * A photo as every pet answer and every `pet.*` event shows it (CONTRACT.md, "Photos"): here in
 * the shared kernel because two features speak of it, the photos feature that records it and the
 * pets feature that answers the pet carrying it; neither imports the other.
 */
export interface PetPhoto {
  readonly id: number;
  /** 1 is the primary; the pet's photos hold 1 to n without gaps. */
  readonly position: number;
  /** The size of the `full` image, in pixels. */
  readonly width: number;
  readonly height: number;
  /** Each size's absolute, content-addressed URL: 100, 300, 600 px wide, and `full`. */
  readonly urls: {
    readonly small: string;
    readonly medium: string;
    readonly large: string;
    readonly full: string;
  };
}
