@testable import FleetLearning
import Testing

/// The live speeds' hash table against `Dictionary`.
struct RoadKeyTableTests {
    /// Random inserts, in-place updates and removals of pieces crowded into a few squares (long probe runs that wrap
    /// round the table, and removals inside them), the table checked against a dictionary after every step.
    @Test func answersWhatADictionaryAnswers() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var table = RoadKeyTable<RoadPiece, [Int]>()
        var expected: [RoadPiece: [Int]] = [:]
        for step in 0..<20_000 {
            // Far apart and negative indexes too, and every heading.
            let piece = RoadPiece(east: Int32(random(12)) - 6 + (random(4) == 0 ? -1_000_000 : 0),
                                  north: Int32(random(12)) - 6, heading: UInt8(random(8)))
            switch random(10) {
            case 0...4:
                let isNew = table.update(piece, default: []) { list in
                    list.append(step)
                    return list.count == 1
                }
                #expect(isNew == (expected[piece] == nil))
                expected[piece, default: []].append(step)
            case 5:
                table[piece] = [step]
                expected[piece] = [step]
            case 6...7:
                #expect(table.removeValue(forKey: piece) == expected.removeValue(forKey: piece))
            default:
                let changed = table.updateIfPresent(piece) { list in list.removeFirst() }
                #expect(changed == expected[piece]?.removeFirst())
                if expected[piece]?.isEmpty == true {
                    expected[piece] = nil
                    table[piece] = nil
                }
            }
            #expect(table.count == expected.count)
            #expect(table[piece] == expected[piece])
        }
        for (piece, list) in expected { #expect(table[piece] == list) }
        let listed = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.value) })
        #expect(listed == expected)
    }

    /// Blocks, which hash their square alone.
    @Test func keepsBlocks() {
        var table = RoadKeyTable<LiveRoadSpeeds.Block, Int>()
        let blocks = (-40..<40).flatMap { east in
            (-3..<3).map { LiveRoadSpeeds.Block(RoadPiece(east: Int32(east * 4), north: Int32($0 * 4), heading: 0)) }
        }
        for (index, block) in blocks.enumerated() { table[block] = index }
        #expect(table.count == blocks.count)
        for (index, block) in blocks.enumerated() { #expect(table[block] == index) }
        for block in blocks.prefix(100) { table[block] = nil }
        #expect(table.count == blocks.count - 100)
        #expect(blocks.prefix(100).allSatisfy { table[$0] == nil })
        for (index, block) in blocks.enumerated().dropFirst(100) { #expect(table[block] == index) }
    }
}
