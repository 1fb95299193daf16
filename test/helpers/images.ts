/** Real test images made with photon inside the Workers runtime (no binary fixtures needed). */
import { PhotonImage } from "@cf-wasm/photon/workerd";

/** A PNG of the given size with a colour gradient (so encoders have real content). */
export function makePng(width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      px[i] = (x * 255) / width;
      px[i + 1] = (y * 255) / height;
      px[i + 2] = 128;
      px[i + 3] = 255;
    }
  }
  const img = new PhotonImage(px, width, height);
  try {
    return img.get_bytes();
  } finally {
    img.free();
  }
}

/** A JPEG of the given size. */
export function makeJpeg(width: number, height: number, quality = 90): Uint8Array {
  const img = PhotonImage.new_from_byteslice(makePng(width, height));
  try {
    return img.get_bytes_jpeg(quality);
  } finally {
    img.free();
  }
}
