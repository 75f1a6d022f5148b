// Irregular verbs' past forms, which the composer's suffix rules do not reach: for "can we bring
// whiskey" it quotes "spirits can't be brought in". Used only to choose sentences (local-model.ts):
// as retrieval alternatives they lifted a dev question over the floor ("Can invoices be sent in
// Spanish?" met "send invoices"). Left out: forms that are as often another word in help text ("left",
// "spoke", "rose", "saw", "sat" for Saturday, "felt", "shot", "fell", "stole", "drunk", "lit"), and
// verbs a question's stopwords already drop (get, do, know).
const TABLE =
  "bring brought|buy bought|teach taught|catch caught|think thought|seek sought|fight fought|sell sold|tell told|hold held|" +
  "pay paid|send sent|spend spent|lend lent|build built|bend bent|lose lost|make made|give gave given|take took taken|" +
  "come came|go went gone|choose chose chosen|drive drove driven|write wrote written|eat ate eaten|speak spoken|wear wore worn|" +
  "freeze froze frozen|steal stolen|fly flew flown|draw drew drawn|grow grew grown|throw threw thrown|show shown|" +
  "begin began begun|swim swam swum|ring rang rung|sing sang sung|drink drank|forget forgot forgotten|hide hid hidden|" +
  "ride rode ridden|wake woke woken|shake shook shaken|stand stood|understand understood|win won|meet met|hear heard|" +
  "find found|keep kept|sleep slept|sweep swept|feed fed|lead led|run ran|see seen|hang hung|deal dealt|dig dug|" +
  "fall fallen|bite bitten|withdraw withdrew withdrawn|spell spelt|learn learnt|spill spilt";

let byForm: Map<string, string[]> | null = null;

/** The other forms of the irregular verb `w` is a form of ("brought" → bring; "bring" → brought), else none. */
export function irregularForms(w: string): string[] {
  if (!byForm) {
    byForm = new Map();
    for (const verb of TABLE.split("|")) {
      const forms = verb.split(" ");
      for (const f of forms) byForm.set(f, forms);
    }
  }
  return byForm.get(w)?.filter((f) => f !== w) ?? [];
}
