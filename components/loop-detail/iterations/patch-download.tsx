"use client";
// Downloads the loop's work against its baseline as a .patch file.
import { useState } from "react";
import { useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";

export function PatchDownload({ loopId }: { loopId: string }) {
  const client = useTRPCClient();
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      pending={pending}
      onClick={async () => {
        setPending(true);
        try {
          const { fileName, patch } = await client.loops.patch.query({ id: loopId });
          const url = URL.createObjectURL(new Blob([patch], { type: "text/x-diff" }));
          const a = document.createElement("a");
          a.href = url;
          a.download = fileName;
          a.click();
          URL.revokeObjectURL(url);
        } catch (e) {
          toast(errorMessage(e), "error");
        } finally {
          setPending(false);
        }
      }}
    >
      Download patch
    </Button>
  );
}
