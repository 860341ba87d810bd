//! rbd-bench on a Ceph image through librbd: the image spec (`POOL/IMAGE`, `rbd:POOL/IMAGE`, or
//! `--pool`/`--image`), the client options the `rbd` command takes (`--id`/`--name`, `--conf`,
//! `--cluster`, `--keyring`); its plan is in `image_plan`.
//!
//! On an image every pattern runs from one client at depth `--io-threads`, as `rbd bench` does
//! with its one image handle (several clients writing one image would take its exclusive lock in
//! turn); `seq` is then one sequential stream rather than a stream per slot.

use std::path::{Path, PathBuf};

/// Which image, and how to reach its cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CephImage {
    pub pool: Option<String>,
    pub image: Option<String>,
    /// `--id` (an id) or `--name` (a full name such as client.admin).
    pub client: Option<String>,
    pub cluster: Option<String>,
    pub conf: Option<PathBuf>,
    pub keyring: Option<PathBuf>,
}

impl CephImage {
    /// Stores a client option of the `rbd` command; false when `key` is none of them.
    pub fn set(&mut self, key: &str, v: &str) -> bool {
        match key {
            "pool" | "pool-name" => self.pool = Some(v.into()),
            "image" | "image-name" => self.image = Some(v.into()),
            "id" | "user" | "name" => self.client = Some(v.into()),
            "cluster" => self.cluster = Some(v.into()),
            "conf" => self.conf = Some(v.into()),
            "keyring" => self.keyring = Some(v.into()),
            _ => return false,
        }
        true
    }

    /// Whether any option names an image (rather than a file or device).
    pub fn is_set(&self) -> bool {
        *self != CephImage::default()
    }

    /// `pool/image` (the pool defaults to `rbd`, as for the `rbd` command).
    pub fn spec(&self) -> String {
        format!(
            "{}/{}",
            self.pool.as_deref().unwrap_or("rbd"),
            self.image.as_deref().unwrap_or("")
        )
    }
}

/// Whether `target` names an image: `rbd:POOL/IMAGE`, or `POOL/IMAGE` (also
/// `POOL/NAMESPACE/IMAGE`) that is no existing path and does not start with `/` or `.`.
pub fn image_spec(target: &Path) -> Option<(String, String)> {
    let t = target.to_str()?;
    let spec = match t.strip_prefix("rbd:") {
        Some(s) => s,
        None if t.starts_with('/') || t.starts_with('.') || target.exists() => return None,
        None => t,
    };
    let (pool, image) = spec.split_once('/')?;
    (!pool.is_empty() && !image.is_empty() && !image.ends_with('/'))
        .then(|| (pool.to_string(), image.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            image_spec(Path::new("rbd/img")),
            Some(("rbd".into(), "img".into()))
        );
        assert_eq!(
            image_spec(Path::new("rbd:p/ns/i")),
            Some(("p".into(), "ns/i".into()))
        );
        assert_eq!(image_spec(Path::new("/dev/rbd0")), None);
        assert_eq!(image_spec(Path::new("./a/b")), None);
        assert_eq!(image_spec(Path::new("img")), None);
        let mut c = CephImage::default();
        assert!(c.set("id", "admin") && c.set("image", "i") && !c.set("io-size", "4K"));
        assert_eq!(c.spec(), "rbd/i");
    }
}
