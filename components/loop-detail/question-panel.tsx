"use client";
// The agent's question a loop in needs_attention waits on, with the answer
// box: the answer goes into the next iteration's input; "continue without
// answering" sends the standing instruction (choose, say so, go on) instead.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { LoopDetail } from "@/components/shared/api-types";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { Field, TextArea } from "@/components/ui/field";
import { toast } from "@/components/ui/toast";

export function QuestionPanel({ detail }: { detail: LoopDetail }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const id = useId();
  const [answer, setAnswer] = useState("");
  const question = detail.pendingQuestion;
  const allowed = detail.availability.answer;
  const send = useMutation({
    mutationFn: (message: string) => client.loops.controls.answer.mutate({ id: detail.loop.id, message }),
    onSuccess: async (_out, message) => {
      toast(
        message ? "Answer sent: it goes into the next iteration's input" : "Continuing without an answer",
        "success",
      );
      setAnswer("");
      await queryClient.invalidateQueries(trpc.loops.byId.queryFilter({ id: detail.loop.id }));
    },
    onError: (error) => toast(errorMessage(error), "error", 8000),
  });
  // A Question notice's deep link (?answer=1#answer) lands here with the answer box in view and focused.
  const asked = Boolean(question && allowed.allowed);
  useEffect(() => {
    if (!asked || new URLSearchParams(window.location.search).get("answer") !== "1") return;
    const box = document.getElementById(`${id}-answer`);
    box?.scrollIntoView({ block: "center" });
    box?.focus();
  }, [asked, id]);
  if (!question) return null;
  return (
    <section
      id="answer"
      data-testid="pending-question"
      aria-labelledby={`${id}-title`}
      className="rounded-xl border-2 border-amber-400 bg-amber-50/60 p-4 dark:border-amber-600 dark:bg-amber-950/40"
    >
      <h2 id={`${id}-title`} className="font-semibold">
        Needs attention: the agent asked a question after iteration {question.iteration}
      </h2>
      <blockquote
        data-testid="agent-question"
        className="mt-2 whitespace-pre-wrap border-l-4 border-amber-400 pl-3 text-sm dark:border-amber-600"
      >
        {question.question}
      </blockquote>
      {allowed.allowed ? (
        <form
          className="mt-3 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (answer.trim()) send.mutate(answer.trim());
          }}
        >
          <Field id={`${id}-answer`} label="Your answer" hint="It goes into the next iteration's input.">
            <TextArea
              id={`${id}-answer`}
              rows={3}
              maxLength={4000}
              value={answer}
              onChange={(e) => setAnswer(e.target.value)}
              aria-describedby={`${id}-answer-hint`}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={!answer.trim() || send.isPending}>
              Send answer
            </Button>
            <Button type="button" variant="secondary" disabled={send.isPending} onClick={() => send.mutate("")}>
              Continue without answering
            </Button>
          </div>
        </form>
      ) : (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{allowed.reason}</p>
      )}
    </section>
  );
}
