//! Names of the sheets of an XLSX workbook.

/// A sheet name Excel accepts (at most 31 characters, none of `[]:*?/\`), unique in `used`.
pub(super) fn sheet_name(want: &str, used: &mut Vec<String>) -> String {
    let clean: String = want
        .chars()
        .map(|c| if "[]:*?/\\'".contains(c) { '_' } else { c })
        .take(28)
        .collect();
    let mut name = clean.clone();
    let mut n = 1;
    while used.iter().any(|u| u.eq_ignore_ascii_case(&name)) {
        n += 1;
        name = format!("{clean}~{n}");
    }
    used.push(name.clone());
    name
}
