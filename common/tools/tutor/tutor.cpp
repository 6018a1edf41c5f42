// tutor: the study tools, one subcommand each.
//
//   tutor grade RECORD.json [--rubric FILE] [--assignment NAME] [--json PATH|-]
//   tutor grade --run MODULE [--seed N]
//   tutor grade --folder DIR [--gradebook out.csv] [--summary]
//   tutor plan [done|start|undo MODULE... | reset --yes] [--state-dir DIR] [--now TIME] [--json PATH|-]
//   tutor cards check|due|review|export ... (recall cards: cards/cards_command.hpp)
//   tutor sheets [--check] [--sheet ID...] [--out DIR] [--src DIR] (reference sheets: docs/cheatsheets/)
//
// Exit codes (ARCHITECTURE.md): 0 success (graded: pass); 1 a check did not hold (graded:
// fail); 2 bad input, one line naming the option, file or key; 3 no usable GPU (--run).
#include <CLI/CLI.hpp>

#include "cards/cards_command.hpp"
#include "grade/grade_command.hpp"
#include "plan/plan_command.hpp"
#include "sheets/sheets_command.hpp"
#include "tutor/cli.hpp"

int main(int argc, char** argv) {
  return tutor::run_main("tutor", [&] {
    CLI::App app{"The tutor's study tools: `grade` a lab's record against its module's rubric, `plan` your "
                 "progress through the modules, review recall `cards` with spaced repetition (and export them "
                 "to Anki), and make the printable reference `sheets`.", "tutor"};
    app.require_subcommand(1);
    tutor::grade::GradeCommand grade(app);
    tutor::plan::PlanCommand plan(app);
    tutor::sheets::SheetsCommand sheets(app);
    tutor::cards::CardsCommand cards(app);
    if (const int parsed = tutor::parse_command_line(app, argc, argv); parsed >= 0) return parsed;
    if (grade.selected()) return grade.run(tutor::command_line(argc, argv));
    if (plan.selected()) return plan.run(tutor::command_line(argc, argv));
    if (sheets.selected()) return sheets.run();
    if (cards.selected()) return cards.run();
    throw tutor::UsageError("tutor: give a subcommand (grade, plan, sheets, cards)");
  });
}
