#include "sheets/sheet_set.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <system_error>

#include <fmt/format.h>

#include "sheets/markdown_html.hpp"
#include "sheets/placeholders.hpp"
#include "tutor/cli.hpp"
#include "tutor/input_file.hpp"
#include "tutor/json_input.hpp"

namespace tutor::sheets {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxTemplateBytes = 1u << 20;

bool is_id(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string escape_html(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

/// Inline Markdown as plain text for a page title: `code`, **bold** and *italic* marks dropped.
std::string unmark(std::string_view text) {
  std::string out;
  for (const char c : text)
    if (c != '`' && c != '*') out += c;
  return out;
}

/// The parts of a filled template the index and the page need.
struct SheetText {
  std::string title;    ///< the '# ' heading
  std::string purpose;  ///< the paragraph after it, on one line
};

SheetText sheet_text(const std::string& filled, const std::string& file) {
  SheetText out;
  std::size_t pos = 0, line_no = 0;
  bool in_purpose = false;
  while (pos < filled.size()) {
    const std::size_t eol = std::min(filled.find('\n', pos), filled.size());
    const std::string_view line(filled.data() + pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (out.title.empty()) {
      if (line.rfind("# ", 0) == 0) {
        out.title = std::string(line.substr(2));
        in_purpose = true;
      }
      continue;
    }
    if (line.empty() || line.rfind("<!--", 0) == 0) {
      if (!out.purpose.empty()) break;
      continue;
    }
    if (line[0] == '#' || line[0] == '|' || line[0] == '-' || !in_purpose) break;
    out.purpose += (out.purpose.empty() ? "" : " ") + std::string(line);
  }
  if (out.title.empty()) throw UsageError(fmt::format("{}: the sheet has no title (a line '# Title')", file));
  return out;
}

/// The print settings a template may set in a comment, `<!-- print: columns=2 font=6.5pt -->`:
/// the number of columns on paper (1 to 4; default 3) and the type size (5 to 10 pt; default
/// the stylesheet's), as CSS custom properties on the page.
std::string print_style(const std::string& text, const std::string& file) {
  // Scanned by hand: std::regex recurses once per character, and a long comment would
  // overflow the stack. The comment is the first `<!--`, optional space, `print:`, then text
  // up to the first '>', which must close the comment as `-->`.
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::string settings;
  bool found = false;
  for (std::size_t open = text.find("<!--"); open != std::string::npos && !found; open = text.find("<!--", open + 1)) {
    std::size_t at = open + 4;
    while (at < text.size() && space(text[at])) ++at;
    if (text.compare(at, 6, "print:") != 0) continue;
    const std::size_t gt = text.find('>', at + 6);
    if (gt == std::string::npos || gt < at + 8 || text.compare(gt - 2, 3, "-->") != 0) continue;
    settings = text.substr(at + 6, gt - 2 - (at + 6));
    found = true;
  }
  if (!found) return "";
  std::string style;
  for (std::size_t pos = 0; pos < settings.size();) {
    if (space(settings[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < settings.size() && !space(settings[end])) ++end;
    const std::string token = settings.substr(pos, end - pos);
    pos = end;
    const std::size_t eq = token.find('=');
    const std::string key = token.substr(0, eq), value = eq == std::string::npos ? "" : token.substr(eq + 1);
    if ((key != "columns" && key != "font") || value.empty())
      throw UsageError(fmt::format("{}: <!-- print:{}-->: give columns=N and/or font=Npt", file,
                                   printable(settings, 60)));
    if (key == "columns") {
      if (value.size() != 1 || value[0] < '1' || value[0] > '4')
        throw UsageError(fmt::format("{}: <!-- print: columns={} -->: columns is 1 to 4", file, printable(value, 20)));
      style += fmt::format("--print-columns: {}; ", value);
    } else {
      static const std::regex kPt(R"((10|[5-9])(\.[0-9])?pt)");
      if (value.size() > 6 || !std::regex_match(value, kPt))
        throw UsageError(fmt::format("{}: <!-- print: font={} -->: font is 5pt to 10pt (one decimal)", file,
                                     printable(value, 20)));
      style += fmt::format("--print-font: {}; ", value);
    }
  }
  if (!style.empty()) style.pop_back();
  return style;
}

std::string html_page(const SheetText& text, const std::string& body, const std::string& style,
                      const std::string& source) {
  return fmt::format(
      "<!DOCTYPE html>\n"
      "<!-- Generated by `tutor sheets` from {source}: edit the template, then run `tutor sheets`. -->\n"
      "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{title}</title>\n<style>\n{css}</style>\n</head>\n<body>\n"
      "<main class=\"sheet\"{style}>\n{body}</main>\n</body>\n</html>\n",
      fmt::arg("source", source), fmt::arg("title", escape_html(unmark(text.title))), fmt::arg("css", sheet_css()),
      fmt::arg("style", style.empty() ? "" : " style=\"" + style + "\""), fmt::arg("body", body));
}

std::string index_page(const std::vector<std::pair<std::string, SheetText>>& sheets, const std::string& templates) {
  std::string rows;
  for (const auto& [id, text] : sheets) {
    std::string purpose = text.purpose;
    for (std::size_t i = 0; (i = purpose.find('|', i)) != std::string::npos; i += 2) purpose.insert(i, "\\");
    rows += fmt::format("| [{}]({}.md) | {} | [{}.html]({}.html) |\n", text.title, id, purpose, id, id);
  }
  return fmt::format(
      "<!-- Generated by `tutor sheets` from {templates}: edit the templates, then run `tutor sheets`. -->\n"
      "# Reference sheets\n\n"
      "One page each, to print and keep beside the keyboard: one sheet per track and one per concept "
      "cluster. Every number on them is filled in by `tutor sheets` from the GPU table "
      "(common/src/hardware.cpp) and the committed records under docs/results/, with a mark naming "
      "the document or record it came from ([d1] a document of the GPU table, [r1] a record; listed under "
      "Data sources at the sheet's foot, apart from its numbered Sources), so a sheet never drifts from its sources: `tutor sheets "
      "--check` runs in ctest and fails when a sheet and its sources disagree.\n\n"
      "| sheet | what it is for | to print |\n| --- | --- | --- |\n{rows}\n"
      "## How to print\n\n"
      "Open a sheet's `.html` file in a browser and print it: A4 or Letter, scale 100%, headers and "
      "footers off. Each sheet fits one page on either paper (print CSS: small type, columns, tables "
      "kept whole, link addresses printed only in the sources list). To make PDFs of every sheet with "
      "headless Chromium (Debian packages `chromium` and `poppler-utils`):\n\n"
      "```\ncommon/tools/tutor/sheets/print_sheets.sh docs/cheatsheets build/sheets-print\n```\n\n"
      "It prints each sheet on A4 and on Letter, checks with `pdfinfo` that each PDF has exactly one "
      "page, and renders the page to PNG at 110 dpi (`pdftoppm -r 110`, legible enough to proofread the "
      "numbers). Chromium's own messages go to `logs/` in the output folder.\n\n"
      "## How to change a sheet\n\n"
      "Edit its template in `{templates}/` and run `tutor sheets` from the repository root (it writes "
      "`<id>.md`, `<id>.html` and this index). Numbers are never typed into a template; they are "
      "placeholders:\n\n"
      "- `{{{{gpu:<key>:<field>[:<format>]}}}}`: a cell of the GPU table, e.g. "
      "`{{{{gpu:h200-sxm:hbm_bandwidth_GBps}}}}`; `ridge_<dtype>` gives the ridge point (peak over "
      "bandwidth, FLOP/byte).\n"
      "- `{{{{record:<path>:<JSON pointer>[:<format>]}}}}`: a number in a committed record, e.g. "
      "`{{{{record:docs/results/H200/b01_architecture/b01_device_info.json:/device/measured/copy_GBps:.0f}}}}`.\n"
      "- `{{{{modules:planned:<track>}}}}`: the track's planned modules from data/curriculum.json.\n\n"
      "`<format>` is a {{fmt}} format spec (`.0f`, `.3g`, `d`; `.1%` shows a fraction as a percentage). A missing record, pointer or a value "
      "that is not a number stops `tutor sheets` with exit 2 and one line naming the template, line "
      "and placeholder. A comment `<!-- print: columns=2 font=6.5pt -->` in a template sets its "
      "printed columns and type size.\n",
      fmt::arg("templates", templates), fmt::arg("rows", rows));
}

}  // namespace

std::vector<std::string> template_ids(const fs::path& templates) {
  std::error_code ec;
  if (!fs::is_directory(templates, ec))
    throw UsageError(fmt::format("--src: {} is not a folder of sheet templates", templates.string()));
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(templates, ec)) {
    if (entry.path().extension() != ".md") continue;
    const std::string id = entry.path().stem().string();
    if (!is_id(id))
      throw UsageError(fmt::format("{}: a template's name is its sheet id, of a-z, 0-9 and '-'", entry.path().string()));
    found.push_back(id);
  }
  if (ec) throw UsageError(fmt::format("--src: cannot read {}: {}", templates.string(), ec.message()));
  auto rank = [](const std::string& id) {
    const auto it = std::find(std::begin(kSheetIds), std::end(kSheetIds), id);
    return static_cast<std::size_t>(it - std::begin(kSheetIds));
  };
  std::sort(found.begin(), found.end(), [&](const std::string& a, const std::string& b) {
    return std::pair(rank(a), a) < std::pair(rank(b), b);
  });
  return found;
}

std::vector<GeneratedFile> generate_sheets(const SheetInputs& in, const std::vector<std::string>& ids, bool with_index) {
  std::vector<GeneratedFile> files;
  std::vector<std::pair<std::string, SheetText>> index;
  for (const std::string& id : ids) {
    const std::string label = in.templates_label + "/" + id + ".md";
    std::string text;
    try {
      text = InputFile((in.templates / (id + ".md")).string(), kMaxTemplateBytes).read_all();
    } catch (const InputError& e) {
      throw UsageError(fmt::format("{}: {}", label, e.what_only()));
    }
    Filler filler(in.repository_root, *in.curriculum);
    const std::string filled = filler.fill(text, label);
    const SheetText sheet = sheet_text(filled, label);
    std::string markdown = filled;
    if (!markdown.empty() && markdown.back() != '\n') markdown += '\n';
    if (!filler.footnotes().empty()) markdown += "\n" + filler.footnote_definitions();
    files.push_back({id + ".md", fmt::format("<!-- Generated by `tutor sheets` from {}: edit the template, then run "
                                             "`tutor sheets`. -->\n{}",
                                             label, markdown)});
    files.push_back({id + ".html", html_page(sheet, markdown_to_html(markdown), print_style(text, label), label)});
    index.emplace_back(id, sheet);
  }
  if (with_index) files.push_back({"README.md", index_page(index, in.templates_label)});
  return files;
}

}  // namespace tutor::sheets
