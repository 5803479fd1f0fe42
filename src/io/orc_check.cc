#include "io/orc_check.h"

#if EMBER_HAVE_ORC

#include <arrow/buffer.h>
#include <arrow/util/compression.h>

#include <algorithm>
#include <limits>
#include <memory>

namespace ember::io {

namespace {

/// A reader of protobuf's wire format, enough to walk the messages of an ORC file's tail and
/// stripe footers.
class ProtoReader {
 public:
  explicit ProtoReader(std::string_view bytes) : p_(bytes) {}
  bool done() const { return p_.empty(); }
  /// The next field's number and wire type; false at a malformed key.
  bool next(uint32_t* field, uint32_t* wire) {
    uint64_t key;
    if (!varint(&key)) return false;
    *field = static_cast<uint32_t>(key >> 3);
    *wire = static_cast<uint32_t>(key & 7);
    return true;
  }
  bool varint(uint64_t* out) {
    *out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_.empty()) return false;
      const auto b = static_cast<uint8_t>(p_[0]);
      p_.remove_prefix(1);
      *out |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool bytes(std::string_view* out) {
    uint64_t n;
    if (!varint(&n) || n > p_.size()) return false;
    *out = p_.substr(0, n);
    p_.remove_prefix(n);
    return true;
  }
  /// Skips a field's value of wire type `wire`.
  bool skip(uint32_t wire) {
    uint64_t v;
    std::string_view s;
    switch (wire) {
      case 0:
        return varint(&v);
      case 1:
        return take(8);
      case 2:
        return bytes(&s);
      case 5:
        return take(4);
      default:
        return false;
    }
  }
  /// The varints of a repeated field, packed (wire type 2) or one value (wire type 0).
  bool repeated_varint(uint32_t wire, std::vector<uint64_t>* out) {
    uint64_t v;
    if (wire == 0) {
      if (!varint(&v)) return false;
      out->push_back(v);
      return true;
    }
    std::string_view packed;
    if (wire != 2 || !bytes(&packed)) return false;
    ProtoReader values(packed);
    while (!values.done()) {
      if (!values.varint(&v)) return false;
      out->push_back(v);
    }
    return true;
  }

 private:
  bool take(size_t n) {
    if (p_.size() < n) return false;
    p_.remove_prefix(n);
    return true;
  }
  std::string_view p_;
};

// ORC's type kinds, stream kinds and column encodings (orc_proto.proto).
constexpr uint64_t kString = 7, kBinary = 8, kUnion = 13, kDecimal = 14, kVarchar = 16, kChar = 17;
constexpr uint64_t kData = 1, kLength = 2, kDictionaryData = 3;
constexpr uint64_t kDictionary = 1, kDirectV2 = 2, kDictionaryV2 = 3;
// Compression kinds of the postscript.
constexpr uint64_t kNone = 0, kZlib = 1, kSnappy = 2, kLz4 = 4, kZstd = 5;

struct OrcType {
  uint64_t kind = 0;
  uint64_t precision = 0;
  uint64_t scale = 0;
  std::vector<uint64_t> subtypes;
};

struct StripeInfo {
  uint64_t offset = 0, index_length = 0, data_length = 0, footer_length = 0;
};

/// What the checks need of a file's tail.
struct Tail {
  uint64_t compression = kNone;
  uint64_t block_size = 256 * 1024;  // the postscript's default
  uint64_t file_length = 0;
  std::vector<OrcType> types;
  std::vector<StripeInfo> stripes;
};

bool parse_type(std::string_view bytes, OrcType* t) {
  ProtoReader r(bytes);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.next(&field, &wire)) return false;
    if (wire == 0 && (field == 1 || field == 5 || field == 6)) {
      if (!r.varint(field == 1 ? &t->kind : field == 5 ? &t->precision : &t->scale)) return false;
    } else if (field == 2) {
      if (!r.repeated_varint(wire, &t->subtypes)) return false;
    } else if (!r.skip(wire)) {
      return false;
    }
  }
  return true;
}

bool parse_stripe_info(std::string_view bytes, StripeInfo* s) {
  ProtoReader r(bytes);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.next(&field, &wire)) return false;
    uint64_t* slot = field == 1   ? &s->offset
                     : field == 2 ? &s->index_length
                     : field == 3 ? &s->data_length
                     : field == 4 ? &s->footer_length
                                  : nullptr;
    if (wire == 0 && slot) {
      if (!r.varint(slot)) return false;
    } else if (!r.skip(wire)) {
      return false;
    }
  }
  return true;
}

/// Parses FileTail { postscript = 1, footer = 2, fileLength = 3 }; the footer's types (4) are
/// read only when `types`, its stripes (3) only when `stripes`.
bool parse_tail(const std::string& serialized, Tail* tail, bool types, bool stripes) {
  ProtoReader r(serialized);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.next(&field, &wire)) return false;
    std::string_view msg;
    if (field == 3 && wire == 0) {
      if (!r.varint(&tail->file_length)) return false;
    } else if ((field == 1 || field == 2) && wire == 2) {
      if (!r.bytes(&msg)) return false;
      ProtoReader m(msg);
      while (!m.done()) {
        uint32_t f, w;
        if (!m.next(&f, &w)) return false;
        std::string_view sub;
        if (field == 1 && w == 0 && (f == 2 || f == 3)) {  // postscript: compression, blockSize
          if (!m.varint(f == 2 ? &tail->compression : &tail->block_size)) return false;
        } else if (field == 2 && w == 2 && ((f == 4 && types) || (f == 3 && stripes))) {
          if (!m.bytes(&sub)) return false;
          if (f == 4) {
            tail->types.emplace_back();
            if (!parse_type(sub, &tail->types.back())) return false;
          } else {
            tail->stripes.emplace_back();
            if (!parse_stripe_info(sub, &tail->stripes.back())) return false;
          }
        } else if (!m.skip(w)) {
          return false;
        }
      }
    } else if (!r.skip(wire)) {
      return false;
    }
  }
  return true;
}

/// The 3-byte header of each chunk of a compressed ORC stream.
struct Chunk {
  std::string_view payload;
  bool original = false;  // stored uncompressed
};

bool next_chunk(std::string_view* stream, Chunk* chunk) {
  if (stream->size() < 3) return false;
  const auto b = [&](size_t i) {
    return static_cast<uint64_t>(static_cast<uint8_t>((*stream)[i]));
  };
  const uint64_t header = b(0) | b(1) << 8 | b(2) << 16;
  const uint64_t length = header >> 1;
  if (length > stream->size() - 3) return false;
  chunk->original = header & 1;
  chunk->payload = stream->substr(3, length);
  stream->remove_prefix(3 + length);
  return true;
}

/// Decompresses ORC streams of one file.
class StreamDecoder {
 public:
  explicit StreamDecoder(const Tail& tail)
      : compression_(tail.compression), block_size_(tail.block_size) {
    arrow::Result<std::unique_ptr<arrow::util::Codec>> codec;
    if (compression_ == kZlib) {
      arrow::util::GZipCodecOptions options;
      options.gzip_format = arrow::util::GZipFormat::DEFLATE;  // ORC's ZLIB is raw deflate
      codec = arrow::util::Codec::Create(arrow::Compression::GZIP, options);
    } else if (compression_ == kSnappy) {
      codec = arrow::util::Codec::Create(arrow::Compression::SNAPPY);
    } else if (compression_ == kLz4) {
      codec = arrow::util::Codec::Create(arrow::Compression::LZ4);  // raw LZ4 blocks
    } else if (compression_ == kZstd) {
      codec = arrow::util::Codec::Create(arrow::Compression::ZSTD);
    }
    if (codec.ok()) codec_ = std::move(*codec);
  }

  /// Whether streams of this file can be decompressed here.
  bool available() const { return compression_ == kNone || codec_ != nullptr; }

  /// The stream's bytes decompressed; false when it is malformed.
  bool decompress(std::string_view stream, std::string* out) const {
    out->clear();
    if (compression_ == kNone) {
      out->assign(stream);
      return true;
    }
    while (!stream.empty()) {
      Chunk chunk;
      if (!next_chunk(&stream, &chunk)) return false;
      if (chunk.original) {
        out->append(chunk.payload);
        continue;
      }
      const size_t at = out->size();
      out->resize(at + block_size_);
      int64_t n = 0;
      if (!decompress_chunk(chunk.payload, reinterpret_cast<uint8_t*>(out->data() + at), &n))
        return false;
      out->resize(at + static_cast<size_t>(n));
    }
    return true;
  }

  /// Decompresses one chunk into `out` (the block size long); `n` receives its size.
  bool decompress_chunk(std::string_view payload, uint8_t* out, int64_t* n) const {
    const auto* in = reinterpret_cast<const uint8_t*>(payload.data());
    const auto in_len = static_cast<int64_t>(payload.size());
    const auto capacity = static_cast<int64_t>(block_size_);
    if (compression_ != kZstd) {
      auto r = codec_->Decompress(in_len, in, capacity, out);
      if (!r.ok() || *r < 0 || *r > capacity) return false;
      *n = *r;
      return true;
    }
    // Arrow's one-shot Zstandard call wants the exact size, which ORC does not record; its
    // streaming decompressor does not.
    auto d = codec_->MakeDecompressor();
    if (!d.ok()) return false;
    int64_t read = 0;
    *n = 0;
    while (!(*d)->IsFinished()) {
      auto r = (*d)->Decompress(in_len - read, in + read, capacity - *n, out + *n);
      if (!r.ok()) return false;
      read += r->bytes_read;
      *n += r->bytes_written;
      if (r->bytes_read == 0 && r->bytes_written == 0)
        return false;  // truncated, or past the block size
    }
    return read == in_len;
  }

  /// The most bytes the stream can decompress to, read from its chunk headers only: a chunk's
  /// own size when stored, Snappy's recorded size, otherwise the block size (the decoder's
  /// limit for a chunk). False when the chunk headers are malformed.
  bool decompressed_bound(std::string_view stream, uint64_t* bound) const {
    *bound = 0;
    if (compression_ == kNone) {
      *bound = stream.size();
      return true;
    }
    while (!stream.empty()) {
      Chunk chunk;
      if (!next_chunk(&stream, &chunk)) return false;
      uint64_t n = block_size_;
      if (chunk.original) {
        n = chunk.payload.size();
      } else if (compression_ == kSnappy) {
        ProtoReader preamble(chunk.payload);  // Snappy starts with the varint of its size
        uint64_t size;
        if (preamble.varint(&size)) n = std::min(size, block_size_);
      }
      *bound += n;
    }
    return true;
  }

 private:
  uint64_t compression_;
  uint64_t block_size_;
  std::unique_ptr<arrow::util::Codec> codec_;
};

/// Reads bit-packed big-endian values of any width up to 64 from a byte string.
class BitReader {
 public:
  explicit BitReader(std::string_view bytes) : bytes_(bytes) {}
  bool read(unsigned width, uint64_t* out) {
    *out = 0;
    for (unsigned left = width; left > 0;) {
      if (bit_ == 0 && left >= 8) {
        if (byte_ >= bytes_.size()) return false;
        *out = *out << 8 | static_cast<uint8_t>(bytes_[byte_++]);
        left -= 8;
        continue;
      }
      if (byte_ >= bytes_.size()) return false;
      const unsigned avail = 8 - bit_;
      const unsigned take = std::min(avail, left);
      const unsigned shift = avail - take;
      const uint64_t bits = (static_cast<uint8_t>(bytes_[byte_]) >> shift) & ((1u << take) - 1);
      *out = *out << take | bits;
      left -= take;
      bit_ += take;
      if (bit_ == 8) {
        bit_ = 0;
        ++byte_;
      }
    }
    return true;
  }
  /// The bytes after the current one, once a run of packed values ends.
  size_t aligned_end() const { return byte_ + (bit_ > 0 ? 1 : 0); }

 private:
  std::string_view bytes_;
  size_t byte_ = 0;
  unsigned bit_ = 0;
};

/// RLE v2's 5-bit encoding of bit widths.
unsigned decode_width(unsigned code) {
  static constexpr unsigned kWidths[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                           12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                           23, 24, 26, 28, 30, 32, 40, 48, 56, 64};
  return kWidths[code & 31];
}

/// The width RLE v2 packs patch entries in: the next one it can encode.
unsigned closest_fixed_width(unsigned n) {
  if (n <= 24) return std::max(n, 1u);
  for (unsigned w : {26u, 28u, 30u, 32u, 40u, 48u, 56u}) {
    if (n <= w) return w;
  }
  return 64;
}

bool read_varint(std::string_view bytes, size_t* pos, uint64_t* out) {
  *out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= bytes.size()) return false;
    const auto b = static_cast<uint8_t>(bytes[(*pos)++]);
    *out |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

bool decode_v1(std::string_view b, const std::function<bool(uint64_t)>& visit) {
  size_t pos = 0;
  while (pos < b.size()) {
    const auto header = static_cast<uint8_t>(b[pos++]);
    if (header < 128) {
      const unsigned count = header + 3u;
      if (pos >= b.size()) return false;
      const auto delta = static_cast<int8_t>(b[pos++]);
      uint64_t base;
      if (!read_varint(b, &pos, &base)) return false;
      for (unsigned i = 0; i < count; ++i)
        if (!visit(base + static_cast<uint64_t>(static_cast<int64_t>(delta) * i))) return true;
    } else {
      for (unsigned i = 0; i < 256u - header; ++i) {
        uint64_t v;
        if (!read_varint(b, &pos, &v)) return false;
        if (!visit(v)) return true;
      }
    }
  }
  return true;
}

int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

bool decode_v2(std::string_view b, const std::function<bool(uint64_t)>& visit) {
  size_t pos = 0;
  std::vector<uint64_t> run;
  while (pos < b.size()) {
    const auto h = static_cast<uint8_t>(b[pos]);
    const unsigned encoding = h >> 6;
    run.clear();
    if (encoding == 0) {  // short repeat
      const unsigned width = ((h >> 3) & 7) + 1, count = (h & 7) + 3;
      if (b.size() - pos < 1 + width) return false;
      uint64_t v = 0;
      for (unsigned i = 0; i < width; ++i) v = v << 8 | static_cast<uint8_t>(b[pos + 1 + i]);
      pos += 1 + width;
      run.assign(count, v);
    } else {
      if (b.size() - pos < 2) return false;
      const unsigned length = ((h & 1u) << 8 | static_cast<uint8_t>(b[pos + 1])) + 1;
      const unsigned width_code = (h >> 1) & 31;
      pos += 2;
      if (encoding == 1) {  // direct
        BitReader bits(b.substr(pos));
        const unsigned width = decode_width(width_code);
        for (unsigned i = 0; i < length; ++i) {
          uint64_t v;
          if (!bits.read(width, &v)) return false;
          run.push_back(v);
        }
        pos += bits.aligned_end();
      } else if (encoding == 2) {  // patched base
        if (b.size() - pos < 2) return false;
        const auto b2 = static_cast<uint8_t>(b[pos]), b3 = static_cast<uint8_t>(b[pos + 1]);
        const unsigned width = decode_width(width_code);
        const unsigned base_bytes = ((b2 >> 5) & 7) + 1, patch_width = decode_width(b2 & 31);
        const unsigned gap_width = ((b3 >> 5) & 7) + 1, patches = b3 & 31;
        pos += 2;
        if (b.size() - pos < base_bytes || patch_width + gap_width > 64) return false;
        uint64_t base = 0;
        for (unsigned i = 0; i < base_bytes; ++i)
          base = base << 8 | static_cast<uint8_t>(b[pos + i]);
        pos += base_bytes;
        const uint64_t sign = uint64_t{1} << (base_bytes * 8 - 1);
        const int64_t signed_base =
            (base & sign) ? -static_cast<int64_t>(base & ~sign) : static_cast<int64_t>(base);
        BitReader bits(b.substr(pos));
        for (unsigned i = 0; i < length; ++i) {
          uint64_t v;
          if (!bits.read(width, &v)) return false;
          run.push_back(v);
        }
        pos += bits.aligned_end();
        BitReader patch_bits(b.substr(pos));
        const unsigned entry_width = closest_fixed_width(patch_width + gap_width);
        const uint64_t patch_mask =
            patch_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << patch_width) - 1;
        uint64_t at = 0;
        for (unsigned i = 0; i < patches; ++i) {
          uint64_t entry;
          if (!patch_bits.read(entry_width, &entry)) return false;
          at += patch_width >= 64 ? 0 : entry >> patch_width;
          const uint64_t patch = entry & patch_mask;
          if (patch != 0 && at < run.size() && width < 64) run[at] |= patch << width;
        }
        pos += patch_bits.aligned_end();
        for (auto& v : run) v = static_cast<uint64_t>(signed_base) + v;
      } else {  // delta
        uint64_t first, delta_zigzag;
        if (!read_varint(b, &pos, &first) || !read_varint(b, &pos, &delta_zigzag)) return false;
        const int64_t delta = unzigzag(delta_zigzag);
        run.push_back(first);
        if (width_code == 0) {
          for (unsigned i = 1; i < length; ++i)
            run.push_back(run.back() + static_cast<uint64_t>(delta));
        } else {
          const unsigned width = decode_width(width_code);
          if (length > 1) run.push_back(first + static_cast<uint64_t>(delta));
          BitReader bits(b.substr(pos));
          for (unsigned i = 2; i < length; ++i) {
            uint64_t d;
            if (!bits.read(width, &d)) return false;
            run.push_back(delta < 0 ? run.back() - d : run.back() + d);
          }
          pos += bits.aligned_end();
        }
      }
    }
    for (uint64_t v : run)
      if (!visit(v)) return true;
  }
  return true;
}

struct StreamRef {
  uint64_t kind = 0, column = 0, offset = 0, length = 0;
};

struct Encoding {
  uint64_t kind = 0, dictionary_size = 0;
};

bool parse_stripe_footer(std::string_view bytes, uint64_t stripe_offset,
                         std::vector<StreamRef>* streams, std::vector<Encoding>* encodings) {
  ProtoReader r(bytes);
  uint32_t field, wire;
  uint64_t at = stripe_offset;
  while (!r.done()) {
    if (!r.next(&field, &wire)) return false;
    std::string_view msg;
    if ((field != 1 && field != 2) || wire != 2) {
      if (!r.skip(wire)) return false;
      continue;
    }
    if (!r.bytes(&msg)) return false;
    ProtoReader m(msg);
    uint64_t values[3] = {0, 0, 0};  // stream: kind, column, length; encoding: kind, dictionarySize
    uint32_t f, w;
    while (!m.done()) {
      if (!m.next(&f, &w)) return false;
      if (w == 0 && f >= 1 && f <= 3) {
        if (!m.varint(&values[f - 1])) return false;
      } else if (!m.skip(w)) {
        return false;
      }
    }
    if (field == 1) {
      streams->push_back({values[0], values[1], at, values[2]});
      if (values[2] > std::numeric_limits<uint64_t>::max() - at) return false;
      at += values[2];
    } else {
      encodings->push_back({values[0], values[1]});
    }
  }
  return true;
}

}  // namespace

bool decode_orc_unsigned_rle(std::string_view bytes, bool v2,
                             const std::function<bool(uint64_t)>& visit) {
  return v2 ? decode_v2(bytes, visit) : decode_v1(bytes, visit);
}

bool orc_adapter_accepts_types(const std::string& serialized_tail) {
  Tail tail;
  if (!parse_tail(serialized_tail, &tail, true, false)) return false;
  for (const OrcType& t : tail.types) {
    // Precision 0 is Hive 0.11's decimal, which the adapter reads as decimal(38, 6).
    if (t.kind == kDecimal &&
        (t.precision > 38 || t.scale > 38 || (t.precision > 0 && t.scale > t.precision)))
      return false;
    if (t.kind == kUnion && t.subtypes.size() > 127) return false;
  }
  return true;
}

namespace {

bool stripe_is_sound(arrow::io::RandomAccessFile& file, const std::string& serialized_tail,
                     int64_t stripe, const std::vector<int>& fields) {
  Tail tail;
  if (!parse_tail(serialized_tail, &tail, true, true)) return false;
  if (stripe < 0 || static_cast<size_t>(stripe) >= tail.stripes.size() || tail.types.empty())
    return false;
  const StripeInfo& s = tail.stripes[static_cast<size_t>(stripe)];
  auto size = file.GetSize();
  if (!size.ok()) return false;
  const auto file_size = static_cast<uint64_t>(*size);
  const uint64_t body = s.index_length + s.data_length;
  if (s.offset > file_size || s.index_length > file_size || s.data_length > file_size ||
      s.footer_length > file_size || s.offset + body + s.footer_length > file_size)
    return false;

  StreamDecoder decoder(tail);
  if (!decoder.available()) return true;  // LZO: nothing here can decompress it
  auto read = [&](uint64_t offset, uint64_t length, std::shared_ptr<arrow::Buffer>* out) {
    auto r = file.ReadAt(static_cast<int64_t>(offset), static_cast<int64_t>(length));
    if (!r.ok() || static_cast<uint64_t>((*r)->size()) != length) return false;
    *out = std::move(*r);
    return true;
  };
  std::shared_ptr<arrow::Buffer> footer_bytes;
  std::string footer;
  if (!read(s.offset + body, s.footer_length, &footer_bytes) ||
      !decoder.decompress(std::string_view(reinterpret_cast<const char*>(footer_bytes->data()),
                                           static_cast<size_t>(footer_bytes->size())),
                          &footer))
    return false;
  std::vector<StreamRef> streams;
  std::vector<Encoding> encodings;
  if (!parse_stripe_footer(footer, s.offset, &streams, &encodings)) return false;
  for (const StreamRef& st : streams)
    if (st.offset + st.length > s.offset + body) return false;

  // The columns of the fields read: each top-level field's column id and its subtree, which
  // ORC numbers in pre-order up to the next field's id.
  const std::vector<uint64_t>& top = tail.types[0].subtypes;
  std::vector<uint64_t> columns;
  for (int f : fields) {
    if (f < 0 || static_cast<size_t>(f) >= top.size()) return false;
    const uint64_t first = top[static_cast<size_t>(f)];
    const uint64_t end = static_cast<size_t>(f) + 1 < top.size() ? top[static_cast<size_t>(f) + 1]
                                                                 : tail.types.size();
    if (first == 0 || end > tail.types.size() || first >= end) return false;
    for (uint64_t c = first; c < end; ++c) columns.push_back(c);
  }

  auto find = [&](uint64_t column, uint64_t kind) -> const StreamRef* {
    for (const StreamRef& st : streams)
      if (st.column == column && st.kind == kind) return &st;
    return nullptr;
  };
  std::string lengths;
  for (uint64_t c : columns) {
    const uint64_t kind = tail.types[c].kind;
    if (kind != kString && kind != kBinary && kind != kVarchar && kind != kChar) continue;
    if (c >= encodings.size()) return false;
    const Encoding& e = encodings[c];
    const bool dictionary = e.kind == kDictionary || e.kind == kDictionaryV2;
    const StreamRef* length_stream = find(c, kLength);
    const StreamRef* data_stream = find(c, dictionary ? kDictionaryData : kData);
    uint64_t capacity = 0;
    std::shared_ptr<arrow::Buffer> bytes;
    if (data_stream) {
      if (!read(data_stream->offset, data_stream->length, &bytes) ||
          !decoder.decompressed_bound(std::string_view(reinterpret_cast<const char*>(bytes->data()),
                                                       static_cast<size_t>(bytes->size())),
                                      &capacity))
        return false;
    }
    uint64_t count = 0, total = 0;
    bool fits = true;
    if (length_stream) {
      if (!read(length_stream->offset, length_stream->length, &bytes) ||
          !decoder.decompress(std::string_view(reinterpret_cast<const char*>(bytes->data()),
                                               static_cast<size_t>(bytes->size())),
                              &lengths))
        return false;
      const uint64_t wanted = dictionary ? e.dictionary_size : std::numeric_limits<uint64_t>::max();
      const bool v2 = e.kind == kDirectV2 || e.kind == kDictionaryV2;
      const bool well_formed = decode_orc_unsigned_rle(lengths, v2, [&](uint64_t n) {
        if (count == wanted) return false;
        ++count;
        if (n > capacity - total) {
          fits = false;
          return false;
        }
        total += n;
        return true;
      });
      if (!well_formed) return false;
    }
    if (!fits) return false;
    // The decoder allocates a dictionary's entries before reading their lengths.
    if (dictionary && count < e.dictionary_size) return false;
  }
  return true;
}

}  // namespace

bool orc_stripe_is_sound(arrow::io::RandomAccessFile& file, const std::string& serialized_tail,
                         int64_t stripe, const std::vector<int>& fields) {
  try {
    return stripe_is_sound(file, serialized_tail, stripe, fields);
  } catch (const std::exception&) {
    return false;  // a block size past what can be allocated
  }
}

}  // namespace ember::io

#endif  // EMBER_HAVE_ORC
