-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "passport";

-- CreateEnum
CREATE TYPE "passport"."ActivityKind" AS ENUM ('event', 'volunteer', 'competition');

-- CreateTable
CREATE TABLE "passport"."profiles" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "faculty" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "passport"."activities" (
    "id" TEXT NOT NULL,
    "profileId" TEXT NOT NULL,
    "kind" "passport"."ActivityKind" NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "profiles_userId_key" ON "passport"."profiles"("userId");

-- AddForeignKey
ALTER TABLE "passport"."profiles" ADD CONSTRAINT "profiles_userId_fkey" FOREIGN KEY ("userId") REFERENCES "public"."User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "passport"."activities" ADD CONSTRAINT "activities_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "passport"."profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
