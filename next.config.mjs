/** @type {import('next').NextConfig} */
const nextConfig = {
  // Keep the database drivers and Prisma's adapters out of the server bundle:
  // they load native code (better-sqlite3) or are large and need no bundling.
  serverExternalPackages: ["@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "pg"],
  poweredByHeader: false,
};

export default nextConfig;
