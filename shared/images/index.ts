/** @module Image helpers shared by the Anki, ComfyUI and cards families. */
export * from "./encode";
export * from "./html";
export * from "./resize";
export * from "./sniff";
