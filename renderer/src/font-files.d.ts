// Font files are bundled as Data modules (renderer/wrangler.toml [[rules]]): their bytes.
declare module "*.ttf" {
  const bytes: ArrayBuffer;
  export default bytes;
}
