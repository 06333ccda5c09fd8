// Stylesheets are bundled by esbuild; the import has no value.
declare module '*.css';
