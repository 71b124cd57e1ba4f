// Bun's bundler turns an imported file into its served URL.
declare module "*.svg" {
  const url: string;
  export default url;
}
