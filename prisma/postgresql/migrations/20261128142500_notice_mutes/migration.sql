-- CreateTable
CREATE TABLE "NoticeMute" (
    "userId" TEXT NOT NULL,
    "loopId" TEXT NOT NULL DEFAULT '',
    "noticeClass" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NoticeMute_pkey" PRIMARY KEY ("userId","loopId","noticeClass")
);
