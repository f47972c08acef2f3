-- CreateTable
CREATE TABLE "NoticeMute" (
    "userId" TEXT NOT NULL,
    "loopId" TEXT NOT NULL DEFAULT '',
    "noticeClass" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "loopId", "noticeClass")
);
