//! `cmdprio_bssplit`: per block size, the share of I/Os sent with a priority of their own,
//! `bs/percent[/class/level]:...`, optionally per direction (`read,write`). Read as fio 3.33
//! reads it: a percentage above 100 counts as 100, a class above 3 as 3, a level above 7 as 7,
//! zero shares are dropped, and the entries are ordered by block size (entries of one size keep
//! their order).

use super::{parse_per_dir, parse_size, ValueError};
use iomark_engine::engines::prio_mix::PrioSplit;
use iomark_engine::job::{IoPriority, PerDir};

/// One direction's list.
pub fn parse_prio_split_list(s: &str, kb_base: u32) -> Result<Vec<PrioSplit>, ValueError> {
    let mut out = Vec::new();
    for item in s.split(':') {
        let item = item.trim();
        if item.is_empty() {
            // fio stops at an empty entry.
            break;
        }
        let fields: Vec<&str> = item.split('/').collect();
        let num = |f: &str| -> Result<u32, ValueError> {
            f.trim()
                .parse::<u32>()
                .map_err(|_| ValueError::NotAWholePercentage {
                    item: item.to_string(),
                    pct: f.to_string(),
                })
        };
        let bs = parse_size(fields[0], kb_base).map_err(|e| e.in_item(item))?;
        let percent = match fields.get(1).map(|f| f.trim()) {
            None | Some("") => 0,
            Some(f) => num(f)?.min(100) as u8,
        };
        // fio 3.33 reads the first four fields; a fifth (a priority hint in later fios) and
        // any more are ignored.
        let prio = match fields.len() {
            1 | 2 => None,
            _ if fields.len() >= 4 => Some(IoPriority {
                class: num(fields[2])?.min(3) as u8,
                level: num(fields[3])?.min(7) as u8,
            }),
            _ => return Err(ValueError::PrioSplitForm(item.to_string())),
        };
        if percent > 0 {
            out.push(PrioSplit { bs, percent, prio });
        }
    }
    if out.len() > 64 {
        return Err(ValueError::TooManyEntries(s.to_string()));
    }
    out.sort_by_key(|e| e.bs);
    Ok(out)
}

/// The whole value, per direction.
pub fn parse_prio_split(
    s: &str,
    kb_base: u32,
) -> Result<PerDir<Option<Vec<PrioSplit>>>, ValueError> {
    parse_per_dir(s, |p| parse_prio_split_list(p, kb_base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fios_forms() {
        let v = parse_prio_split_list("64k/25/1/1:64k/75/3/2:1024k/0", 1024).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].prio, Some(IoPriority { class: 1, level: 1 }));
        assert_eq!(v[1].percent, 75);
        let v = parse_prio_split_list("1m/10:4k/150:8k/", 1024).unwrap();
        let sizes: Vec<u64> = v.iter().map(|e| e.bs).collect();
        assert_eq!(sizes, [4096, 1 << 20]);
        assert_eq!(v[0].percent, 100);
        assert!(v[0].prio.is_none());
        let v = parse_prio_split_list("4k/10/9/9", 1024).unwrap();
        assert_eq!(v[0].prio, Some(IoPriority { class: 3, level: 7 }));
        assert!(parse_prio_split_list("4k/10/1", 1024).is_err());
        let v = parse_prio_split_list("1M/10/2/0/1:4k/50/1/3/0", 1024).unwrap();
        assert_eq!(v[0].prio, Some(IoPriority { class: 1, level: 3 }));
        assert_eq!(v[1].prio, Some(IoPriority { class: 2, level: 0 }));
        assert!(parse_prio_split_list("4k/x", 1024).is_err());
        assert!(parse_prio_split_list("zz/10", 1024).is_err());
        let d = parse_prio_split("4k/10,8k/20", 1024).unwrap();
        assert_eq!(d.read.unwrap()[0].bs, 4096);
        assert_eq!(d.write.unwrap()[0].bs, 8192);
    }
}
